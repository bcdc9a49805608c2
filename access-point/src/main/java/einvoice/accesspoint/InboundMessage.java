package einvoice.accesspoint;

import java.security.cert.X509Certificate;
import java.time.Instant;

/**
 * A Peppol AS4 message that passed every check (signature, sender certificate, one SBD payload,
 * SBDH consistent with the AS4 header), as a sink gets it. Participant ids are values without their
 * scheme (`0208:0123456749`); document type and process are full `scheme::value` identifiers; the
 * SBD is exactly as it arrived (decrypted and decompressed).
 */
record InboundMessage(
    String messageId,
    String conversationId,
    String fromPartyId,
    String toPartyId,
    String senderId,
    String receiverId,
    String documentTypeId,
    String processId,
    String countryC1,
    X509Certificate senderCertificate,
    Instant receivedAt,
    byte[] sbd) {}
