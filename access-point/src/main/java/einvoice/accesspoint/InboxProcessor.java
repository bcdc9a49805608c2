package einvoice.accesspoint;

import java.io.InputStream;
import java.security.cert.X509Certificate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.wss4j.dom.str.STRParser;
import org.unece.cefact.namespaces.sbdh.StandardBusinessDocument;
import org.w3c.dom.Node;

import com.helger.collection.commons.ICommonsList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.peppol.sbdh.PeppolSBDHData;
import com.helger.peppol.sbdh.PeppolSBDHDataReadException;
import com.helger.peppol.sbdh.PeppolSBDHDataReader;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.phase4.CAS4;
import com.helger.phase4.attachment.WSS4JAttachment;
import com.helger.phase4.ebms3header.Ebms3PartyId;
import com.helger.phase4.ebms3header.Ebms3Property;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.ebms3header.Ebms3UserMessage;
import com.helger.phase4.error.AS4ErrorList;
import com.helger.phase4.incoming.IAS4IncomingMessageMetadata;
import com.helger.phase4.incoming.IAS4IncomingMessageState;
import com.helger.phase4.incoming.spi.AS4MessageProcessorResult;
import com.helger.phase4.incoming.spi.AS4SignalMessageProcessorResult;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.model.error.EEbmsError;
import com.helger.phase4.model.pmode.IPMode;
import com.helger.sbdh.SBDMarshaller;

/**
 * Handles a Peppol AS4 user message that phase4 has verified and decrypted: checks what the
 * Peppol AS4 profile leaves to the access point (sender certificate, one SBD payload, consistent
 * routing), then stores it. Any error added here makes phase4 answer with an AS4 error instead of
 * a receipt.
 */
final class InboxProcessor implements IAS4IncomingMessageProcessorSPI {
  private final Trust trust;
  private final Inbox inbox;
  private final Set<String> rejectedReceivers;

  InboxProcessor(Trust trust, Inbox inbox, Set<String> rejectedReceivers) {
    this.trust = trust;
    this.inbox = inbox;
    this.rejectedReceivers = rejectedReceivers;
  }

  /** Thrown with the ebMS error to answer; keeps the checks below linear. */
  private static final class Refusal extends Exception {
    final EEbmsError error;
    final String detail;

    Refusal(EEbmsError error, String detail) {
      super(detail);
      this.error = error;
      this.detail = detail;
    }
  }

  @Override
  public AS4MessageProcessorResult processAS4UserMessage(IAS4IncomingMessageMetadata metadata, HttpHeaderMap headers,
      Ebms3UserMessage message, IPMode pmode, Node soapBody, ICommonsList<WSS4JAttachment> attachments,
      IAS4IncomingMessageState state, AS4ErrorList errors) {
    String messageId = message.getMessageInfo().getMessageId();
    String from = partyId(message, true);
    try {
      checkSecurity(state);
      byte[] sbd = onlyPayload(attachments);
      PeppolSBDHData sbdh = readSbdh(sbd);
      checkRouting(message, sbdh);
      if (rejectedReceivers.contains(normalise(sbdh.getReceiverValue()))) {
        throw new Refusal(EEbmsError.EBMS_OTHER, "PEPPOL:NOT_SERVICED");
      }
      boolean stored = inbox.store(messageId, sbd, metadata(message, sbdh, state.getSigningCertificate(), sbd.length));
      Log.LOG.info("received message {} from {} ({}) to {} ({}): {} ({} bytes) [local Peppol network stand-in]",
          messageId, sbdh.getSenderURIEncoded(), from, sbdh.getReceiverURIEncoded(), partyId(message, false),
          stored ? "stored" : "duplicate, already stored; receipt sent again", sbd.length);
      return AS4MessageProcessorResult.createSuccess();
    } catch (Refusal r) {
      Log.LOG.info("received message {} from {}: refused with {} {} [local Peppol network stand-in]", messageId, from,
          r.error.getErrorCode(), r.detail);
      Locale locale = state.getLocale();
      var error = r.error.errorBuilder(locale).refToMessageInError(messageId).errorDetail(r.detail);
      if ("PEPPOL:NOT_SERVICED".equals(r.detail)) {
        error.description("The receiver is not serviced by this access point (AP_REJECT_RECEIVERS of the local test network)", locale);
      }
      errors.add(error.build());
      return AS4MessageProcessorResult.createFailure();
    } catch (Exception e) {
      Log.LOG.error("received message " + messageId + " from " + from + ": could not be stored", e);
      errors.add(EEbmsError.EBMS_OTHER.errorBuilder(state.getLocale()).refToMessageInError(messageId)
          .errorDetail("The message could not be stored by the receiving access point").build());
      return AS4MessageProcessorResult.createFailure();
    }
  }

  /** Peppol AS4: signed and encrypted, certificates as BinarySecurityToken, signer from a trusted CA. */
  private void checkSecurity(IAS4IncomingMessageState state) throws Refusal {
    if (!state.isSoapDecrypted()) throw new Refusal(EEbmsError.EBMS_FAILED_DECRYPTION, "The message is not encrypted");
    if (!state.isSoapSignatureChecked()) throw new Refusal(EEbmsError.EBMS_FAILED_AUTHENTICATION, "The message is not signed");
    if (state.getSigningCertificateReferenceType() != STRParser.REFERENCE_TYPE.DIRECT_REF) {
      throw new Refusal(EEbmsError.EBMS_POLICY_NONCOMPLIANCE, "The signing certificate is not a BinarySecurityToken");
    }
    String problem = trust.problemWith(state.getSigningCertificate());
    if (problem != null) throw new Refusal(EEbmsError.EBMS_FAILED_AUTHENTICATION, "Sending access point " + problem);
  }

  /** Peppol carries exactly one payload: the SBD. Returned decompressed, byte for byte as sent. */
  private static byte[] onlyPayload(ICommonsList<WSS4JAttachment> attachments) throws Exception {
    if (attachments == null || attachments.size() != 1) {
      throw new Refusal(EEbmsError.EBMS_OTHER, "Exactly one payload is expected, got "
          + (attachments == null ? 0 : attachments.size()));
    }
    try (InputStream in = attachments.getFirstOrNull().getSourceStream()) {
      return in.readAllBytes();
    } catch (Exception e) {
      throw new Refusal(EEbmsError.EBMS_DECOMPRESSION_FAILURE, "The payload could not be decompressed");
    }
  }

  private static PeppolSBDHData readSbdh(byte[] sbd) throws Refusal {
    StandardBusinessDocument document = new SBDMarshaller().read(sbd);
    if (document == null) throw new Refusal(EEbmsError.EBMS_OTHER, "The payload is not a Standard Business Document");
    try {
      return new PeppolSBDHDataReader(PeppolIdentifierFactory.INSTANCE).extractData(document);
    } catch (PeppolSBDHDataReadException e) {
      throw new Refusal(EEbmsError.EBMS_OTHER, "The SBDH does not follow the Peppol Envelope specification: " + e.getMessage());
    }
  }

  /** The AS4 originalSender/finalRecipient properties must name the same parties as the SBDH. */
  private static void checkRouting(Ebms3UserMessage message, PeppolSBDHData sbdh) throws Refusal {
    String originalSender = property(message, CAS4.ORIGINAL_SENDER);
    String finalRecipient = property(message, CAS4.FINAL_RECIPIENT);
    if (originalSender == null || !normalise(originalSender).equals(normalise(sbdh.getSenderValue()))) {
      throw new Refusal(EEbmsError.EBMS_OTHER, "AS4 originalSender '" + originalSender + "' differs from the SBDH sender");
    }
    if (finalRecipient == null || !normalise(finalRecipient).equals(normalise(sbdh.getReceiverValue()))) {
      throw new Refusal(EEbmsError.EBMS_OTHER, "AS4 finalRecipient '" + finalRecipient + "' differs from the SBDH receiver");
    }
  }

  private static Map<String, Object> metadata(Ebms3UserMessage message, PeppolSBDHData sbdh, X509Certificate signer,
      int bytes) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("messageId", message.getMessageInfo().getMessageId());
    m.put("conversationId", message.getCollaborationInfo().getConversationId());
    m.put("receivedAt", OffsetDateTime.now(ZoneOffset.UTC).toString());
    m.put("fromPartyId", partyId(message, true));
    m.put("toPartyId", partyId(message, false));
    m.put("senderId", sbdh.getSenderValue());
    m.put("receiverId", sbdh.getReceiverValue());
    m.put("documentTypeId", sbdh.getDocumentTypeURIEncoded());
    m.put("processId", sbdh.getProcessURIEncoded());
    m.put("senderCertificateSubject", Certificates.subject(signer));
    m.put("bytes", bytes);
    return m;
  }

  private static String partyId(Ebms3UserMessage message, boolean from) {
    List<Ebms3PartyId> ids = from ? message.getPartyInfo().getFrom().getPartyId() : message.getPartyInfo().getTo().getPartyId();
    return ids.isEmpty() ? null : ids.get(0).getValue();
  }

  private static String property(Ebms3UserMessage message, String name) {
    if (message.getMessageProperties() == null) return null;
    for (Ebms3Property p : message.getMessageProperties().getProperty()) {
      if (name.equals(p.getName())) return p.getValue();
    }
    return null;
  }

  /** Participant ids compare without the iso6523 scheme prefix and case-insensitively, as Peppol ids do. */
  static String normalise(String participant) {
    String value = participant.trim();
    String prefix = SendRequest.PARTICIPANT_SCHEME + "::";
    if (value.startsWith(prefix)) value = value.substring(prefix.length());
    return value.toLowerCase(Locale.ROOT);
  }

  @Override
  public AS4SignalMessageProcessorResult processAS4SignalMessage(IAS4IncomingMessageMetadata metadata,
      HttpHeaderMap headers, Ebms3SignalMessage message, IPMode pmode, IAS4IncomingMessageState state,
      AS4ErrorList errors) {
    // A one-way push receiver gets no signal messages (no pull, no async receipts).
    errors.add(EEbmsError.EBMS_OTHER.errorBuilder(state.getLocale()).refToMessageInError(state.getMessageID())
        .errorDetail("Signal messages are not accepted here").build());
    return AS4SignalMessageProcessorResult.createFailure();
  }

  @Override
  public void processAS4ResponseMessage(IAS4IncomingMessageMetadata metadata, IAS4IncomingMessageState state,
      String responseMessageId, byte[] responseBytes, boolean responsePayloadIsAvailable, AS4ErrorList errors) {
    // Nothing to keep: the receipt is phase4's business.
  }
}
