package einvoice.accesspoint;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import org.apache.wss4j.dom.str.STRParser;
import org.unece.cefact.namespaces.sbdh.StandardBusinessDocument;
import org.w3c.dom.Node;

import com.helger.collection.commons.ICommonsList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.peppol.sbdh.PeppolSBDHData;
import com.helger.peppol.sbdh.PeppolSBDHDataReadException;
import com.helger.peppol.sbdh.PeppolSBDHDataReader;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.helger.peppolid.peppol.PeppolIdentifierHelper;
import com.helger.phase4.CAS4;
import com.helger.phase4.attachment.WSS4JAttachment;
import com.helger.phase4.ebms3header.Ebms3CollaborationInfo;
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
import com.helger.phase4.profile.peppol.PeppolPMode;
import com.helger.sbdh.SBDMarshaller;

/**
 * Handles a Peppol AS4 user message that phase4 has verified and decrypted: checks what the
 * Peppol AS4 profile leaves to the access point (sender certificate, party ids, one SBD payload
 * within the size limit, SBDH consistent with the AS4 header), then hands it to the sink. Any error
 * added here makes phase4 answer with an AS4 error instead of a receipt.
 */
final class InboundProcessor implements IAS4IncomingMessageProcessorSPI {
  /** Said to the sender when the sink could not keep the message: nothing was kept, the same message may come again. */
  static final String NOT_KEPT = "The message could not be stored by the receiving access point; try again later";

  private final Trust trust;
  private final String seat;
  private final int maxPayloadBytes;
  private final InboundSink sink;

  InboundProcessor(Trust trust, String seat, int maxPayloadBytes, InboundSink sink) {
    this.trust = trust;
    this.seat = seat;
    this.maxPayloadBytes = maxPayloadBytes;
    this.sink = sink;
  }

  @Override
  public AS4MessageProcessorResult processAS4UserMessage(IAS4IncomingMessageMetadata metadata, HttpHeaderMap headers,
      Ebms3UserMessage message, IPMode pmode, Node soapBody, ICommonsList<WSS4JAttachment> attachments,
      IAS4IncomingMessageState state, AS4ErrorList errors) {
    String messageId = message.getMessageInfo().getMessageId();
    String from = partyId(message, true);
    Locale locale = state.getLocale();
    try {
      checkSecurity(state, from);
      checkParties(message);
      byte[] sbd = onlyPayload(attachments);
      PayloadShape.check(sbd);
      PeppolSBDHData sbdh = readSbdh(sbd);
      checkRouting(message, sbdh);
      InboundMessage inbound = new InboundMessage(messageId, message.getCollaborationInfo().getConversationId(), from,
          partyId(message, false), sbdh.getSenderValue(), sbdh.getReceiverValue(), sbdh.getDocumentTypeURIEncoded(),
          sbdh.getProcessURIEncoded(), sbdh.getCountryC1(), state.getSigningCertificate(),
          metadata.getIncomingDT().toInstant(), sbd);
      String kept = sink.keep(inbound);
      Log.LOG.info("received message {} from {} ({}) to {}: {} ({} bytes)", messageId, sbdh.getSenderURIEncoded(), from,
          sbdh.getReceiverURIEncoded(), kept, sbd.length);
      return AS4MessageProcessorResult.createSuccess();
    } catch (InboundRefusal r) {
      Log.LOG.info("received message {} from {}: refused with {} {}", messageId, from, r.error.getErrorCode(), r.getMessage());
      errors.add(r.errorFor(messageId, locale).build());
      return AS4MessageProcessorResult.createFailure();
    } catch (StackOverflowError e) {
      // The last guard behind PayloadShape: whatever reader overflowed, the sender gets an answer, and this thread lives on.
      Log.LOG.warn("received message {} from {}: too deeply nested to read; refused", messageId, from);
      errors.add(EEbmsError.EBMS_OTHER.errorBuilder(locale).refToMessageInError(messageId).errorDetail("The message is nested too deeply to be read").build());
      return AS4MessageProcessorResult.createFailure();
    } catch (Exception e) {
      // The sink's own words stay in our log: the sender learns only that it may try again.
      if (e instanceof IOException) {
        Log.LOG.warn("received message {} from {}: not kept ({}); answered with an AS4 error", messageId, from, e.getMessage());
      } else {
        Log.LOG.error("received message " + messageId + " from " + from + ": not kept; answered with an AS4 error", e);
      }
      // DeliveryFailure, as CEF eDelivery AS4 names a message the receiving MSH could not process: passing, so a sender tries again.
      errors.add(EEbmsError.EBMS_DELIVERY_FAILURE.errorBuilder(locale).refToMessageInError(messageId).errorDetail(NOT_KEPT).build());
      return AS4MessageProcessorResult.createFailure();
    }
  }

  /**
   * Peppol AS4: signed and encrypted, certificates as BinarySecurityToken, signer from a trusted CA, and the
   * seat the message claims as its sender (PartyInfo/From) is the signing certificate's CN: one access point
   * cannot speak as another.
   */
  private void checkSecurity(IAS4IncomingMessageState state, String from) throws InboundRefusal {
    if (!state.isSoapDecrypted()) throw new InboundRefusal(EEbmsError.EBMS_FAILED_DECRYPTION, "The message is not encrypted");
    if (!state.isSoapSignatureChecked()) throw new InboundRefusal(EEbmsError.EBMS_FAILED_AUTHENTICATION, "The message is not signed");
    if (state.getSigningCertificateReferenceType() != STRParser.REFERENCE_TYPE.DIRECT_REF) {
      throw new InboundRefusal(EEbmsError.EBMS_POLICY_NONCOMPLIANCE, "The signing certificate is not a BinarySecurityToken");
    }
    String problem = trust.problemWith(state.getSigningCertificate());
    if (problem != null) throw new InboundRefusal(EEbmsError.EBMS_FAILED_AUTHENTICATION, "Sending access point " + problem);
    String signer = Certificates.commonName(state.getSigningCertificate());
    if (from == null || !from.equals(signer)) {
      throw new InboundRefusal(EEbmsError.EBMS_FAILED_AUTHENTICATION,
          "PartyInfo/From/PartyId '" + from + "' is not the seat of the signing certificate (CN=" + signer + ")");
    }
  }

  /** Peppol AS4 party identification: one seat id each, of the Peppol AP type; the message must be for our seat. */
  private void checkParties(Ebms3UserMessage message) throws InboundRefusal {
    checkParty("From", message.getPartyInfo().getFrom().getPartyId());
    checkParty("To", message.getPartyInfo().getTo().getPartyId());
    String to = partyId(message, false);
    if (!seat.equals(to)) throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The message is for access point '" + to + "', this is " + seat);
  }

  private static void checkParty(String role, List<Ebms3PartyId> ids) throws InboundRefusal {
    if (ids.size() != 1) throw new InboundRefusal(EEbmsError.EBMS_OTHER, "PartyInfo/" + role + " must hold exactly one PartyId, not " + ids.size());
    Ebms3PartyId id = ids.get(0);
    if (id.getValue() == null || !id.getValue().matches(PeppolIdentifierHelper.REGEX_SEAT_ID)) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "PartyInfo/" + role + "/PartyId '" + id.getValue() + "' is not a Peppol seat id");
    }
    if (!PeppolPMode.DEFAULT_PARTY_TYPE_ID.equals(id.getType())) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "PartyInfo/" + role + "/PartyId must have type " + PeppolPMode.DEFAULT_PARTY_TYPE_ID);
    }
  }

  /**
   * Peppol carries exactly one payload: the SBD. Returned decompressed, byte for byte as sent, and read
   * only up to the size limit: a larger one is refused without being held.
   */
  private byte[] onlyPayload(ICommonsList<WSS4JAttachment> attachments) throws InboundRefusal {
    if (attachments == null || attachments.size() != 1) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "Exactly one payload is expected, got "
          + (attachments == null ? 0 : attachments.size()));
    }
    byte[] sbd;
    try (InputStream in = attachments.getFirstOrNull().getSourceStream()) {
      sbd = in.readNBytes(maxPayloadBytes + 1);
    } catch (Exception e) {
      throw new InboundRefusal(EEbmsError.EBMS_DECOMPRESSION_FAILURE, "The payload could not be decompressed");
    }
    if (sbd.length > maxPayloadBytes) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER,
          "The payload is larger than the " + maxPayloadBytes + " bytes this access point accepts");
    }
    return sbd;
  }

  private static PeppolSBDHData readSbdh(byte[] sbd) throws InboundRefusal {
    StandardBusinessDocument document = new SBDMarshaller().read(sbd);
    if (document == null) throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The payload is not a Standard Business Document");
    try {
      return new PeppolSBDHDataReader(PeppolIdentifierFactory.INSTANCE).extractData(document);
    } catch (PeppolSBDHDataReadException e) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The SBDH does not follow the Peppol Envelope specification: " + e.getMessage());
    }
  }

  /**
   * The AS4 header must route as the SBDH does: originalSender/finalRecipient name its parties, Action
   * is its document type and Service its process (Peppol AS4 profile, as phase4's Peppol sender writes them).
   */
  private static void checkRouting(Ebms3UserMessage message, PeppolSBDHData sbdh) throws InboundRefusal {
    String originalSender = property(message, CAS4.ORIGINAL_SENDER);
    String finalRecipient = property(message, CAS4.FINAL_RECIPIENT);
    if (originalSender == null || !normalise(originalSender).equals(normalise(sbdh.getSenderValue()))) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "AS4 originalSender '" + originalSender + "' differs from the SBDH sender");
    }
    if (finalRecipient == null || !normalise(finalRecipient).equals(normalise(sbdh.getReceiverValue()))) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "AS4 finalRecipient '" + finalRecipient + "' differs from the SBDH receiver");
    }
    Ebms3CollaborationInfo collaboration = message.getCollaborationInfo();
    if (!sbdh.getDocumentTypeURIEncoded().equals(collaboration.getAction())) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "AS4 Action '" + collaboration.getAction() + "' differs from the SBDH document type");
    }
    String service = collaboration.getService() == null ? null
        : collaboration.getService().getType() + "::" + collaboration.getServiceValue();
    if (!sbdh.getProcessURIEncoded().equals(service)) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "AS4 Service '" + service + "' differs from the SBDH process");
    }
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
