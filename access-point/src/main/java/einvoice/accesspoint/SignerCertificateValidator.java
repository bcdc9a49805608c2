package einvoice.accesspoint;

import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.validate.Credential;
import org.apache.wss4j.dom.validate.SignatureTrustValidator;

/**
 * WSS4J still verifies the signature itself; this only replaces its trust decision. Peppol wants
 * the signing certificate as a BinarySecurityToken, and whether it comes from a trusted CA is
 * decided in InboxProcessor (Trust), which answers an untrusted sender with EBMS:0101 and the
 * reason - WSS4J would only report a generic security header failure.
 */
final class SignerCertificateValidator extends SignatureTrustValidator {
  @Override
  public Credential validate(Credential credential, RequestData data) throws WSSecurityException {
    if (credential == null || credential.getCertificates() == null || credential.getCertificates().length == 0) {
      throw new WSSecurityException(WSSecurityException.ErrorCode.FAILED_AUTHENTICATION);
    }
    return credential;
  }
}
