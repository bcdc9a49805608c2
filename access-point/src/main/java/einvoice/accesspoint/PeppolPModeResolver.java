package einvoice.accesspoint;

import com.helger.phase4.model.pmode.IPMode;
import com.helger.phase4.model.pmode.resolve.IAS4PModeResolver;
import com.helger.phase4.profile.peppol.AS4PeppolProfileRegistarSPI;
import com.helger.phase4.profile.peppol.PeppolPMode;

/**
 * Every incoming message is judged by the one Peppol PMode (one-way push, Peppol security), built
 * for the parties at hand and not stored: the PMode manager would otherwise grow by one entry per
 * sender/receiver pair.
 */
final class PeppolPModeResolver implements IAS4PModeResolver {
  @Override
  public IPMode findPMode(String pmodeId, String service, String action, String initiatorId, String responderId,
      String agreementRef, String address) {
    return PeppolPMode.createPeppolPMode(initiatorId, responderId, address,
        AS4PeppolProfileRegistarSPI.PMODE_ID_PROVIDER, false);
  }
}
