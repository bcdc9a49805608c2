package einvoice.accesspoint;

import java.util.Locale;

import com.helger.phase4.model.error.EEbmsError;
import com.helger.phase4.model.error.Ebms3ErrorBuilder;

/** A message refused with the ebMS error to answer; keeps the checks linear. */
final class InboundRefusal extends Exception {
  /** The errorDetail the Peppol AS4 profile prescribes for a receiver this access point does not serve. */
  static final String NOT_SERVICED = "PEPPOL:NOT_SERVICED";

  final EEbmsError error;
  final String detail;
  /** Optional longer explanation (ebMS Description). */
  final String description;

  InboundRefusal(EEbmsError error, String detail) {
    this(error, detail, null);
  }

  private InboundRefusal(EEbmsError error, String detail, String description) {
    super(description == null ? detail : detail + ": " + description);
    this.error = error;
    this.detail = detail;
    this.description = description;
  }

  /** Peppol AS4 profile: EBMS:0004 with errorDetail PEPPOL:NOT_SERVICED; `why` goes into the description. */
  static InboundRefusal notServiced(String why) {
    return new InboundRefusal(EEbmsError.EBMS_OTHER, NOT_SERVICED, why);
  }

  Ebms3ErrorBuilder errorFor(String messageId, Locale locale) {
    Ebms3ErrorBuilder builder = error.errorBuilder(locale).refToMessageInError(messageId).errorDetail(detail);
    return description == null ? builder : builder.description(description, locale);
  }
}
