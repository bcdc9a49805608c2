package einvoice.accesspoint;

import java.util.Locale;

import com.helger.phase4.model.error.EEbmsError;
import com.helger.phase4.model.error.Ebms3ErrorBuilder;

/** A message refused with the ebMS error to answer; keeps the checks linear. */
final class InboundRefusal extends Exception {
  /** The errorDetail the Peppol AS4 profile prescribes for a receiver this access point does not serve. */
  static final String NOT_SERVICED = "PEPPOL:NOT_SERVICED";
  /** The intake's word for a message id it holds for another message. */
  static final String MESSAGE_ID_REUSED = "MESSAGE_ID_REUSED";

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

  /**
   * A message id seen before with another sender, receiver or payload: not a repeat (a receipt would tell the
   * sender it was delivered) and not ours to overwrite. ebMS 3 core (6.7.1) names an inconsistent header value
   * EBMS:0003 ValueInconsistent.
   */
  static InboundRefusal messageIdReused(String why) {
    return new InboundRefusal(EEbmsError.EBMS_VALUE_INCONSISTENT, "MessageId reused for a different message", why);
  }

  Ebms3ErrorBuilder errorFor(String messageId, Locale locale) {
    Ebms3ErrorBuilder builder = error.errorBuilder(locale).refToMessageInError(messageId).errorDetail(detail);
    return description == null ? builder : builder.description(description, locale);
  }
}
