package einvoice.accesspoint;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;

import com.helger.json.IJson;
import com.helger.json.IJsonObject;
import com.helger.json.serialize.JsonReader;
import com.helger.peppolid.IDocumentTypeIdentifier;
import com.helger.peppolid.IParticipantIdentifier;
import com.helger.peppolid.IProcessIdentifier;
import com.helger.peppolid.factory.PeppolIdentifierFactory;

/** A checked POST /send body; every problem becomes a 400 before anything goes on the wire. */
record SendRequest(
    String messageId,
    IParticipantIdentifier sender,
    IParticipantIdentifier receiver,
    IDocumentTypeIdentifier documentType,
    IProcessIdentifier process,
    String countryC1,
    String endpointUrl,
    X509Certificate receiverCertificate,
    byte[] sbd) {

  static final String PARTICIPANT_SCHEME = "iso6523-actorid-upis";
  private static final PeppolIdentifierFactory IDS = PeppolIdentifierFactory.INSTANCE;

  static final class Invalid extends Exception {
    Invalid(String message) {
      super(message);
    }
  }

  static SendRequest parse(byte[] body) throws Invalid {
    // The parse error goes into the 400 answer, not into the access point's log.
    AtomicReference<String> parseError = new AtomicReference<>();
    IJson parsed = JsonReader.builder()
        .source(body, StandardCharsets.UTF_8)
        .customExceptionCallback(e -> parseError.set(e.getMessage()))
        .read();
    if (parsed == null) throw new Invalid("the body is not JSON: " + parseError.get());
    if (!parsed.isObject()) throw new Invalid("the body must be a JSON object");
    IJsonObject json = parsed.getAsObject();
    String messageId = field(json, "messageId");
    // An AS4 message id ends up in XML and in the receiver's file names: keep it printable.
    if (!messageId.matches("[\\x21-\\x7e&&[^<>\"]]{1,200}")) throw new Invalid("messageId has unsupported characters");
    String country = field(json, "countryC1");
    if (!country.matches("[A-Z]{2}")) throw new Invalid("countryC1 must be a two-letter country code");
    return new SendRequest(messageId, participant(json, "senderId"), participant(json, "receiverId"),
        documentType(field(json, "documentTypeId")), process(field(json, "processId")), country,
        endpoint(field(json, "endpointUrl")), certificate(field(json, "receiverCertificate")),
        sbd(field(json, "sbd")));
  }

  private static String field(IJsonObject json, String name) throws Invalid {
    if (!(json.getValue(name) instanceof String value) || value.isBlank()) {
      throw new Invalid("missing or non-string field '" + name + "'");
    }
    return value.trim();
  }

  /** Accepts "0208:0123456749" or the full "iso6523-actorid-upis::0208:0123456749". */
  private static IParticipantIdentifier participant(IJsonObject json, String name) throws Invalid {
    String value = field(json, name);
    String prefix = PARTICIPANT_SCHEME + "::";
    if (value.startsWith(prefix)) value = value.substring(prefix.length());
    IParticipantIdentifier id = IDS.createParticipantIdentifier(PARTICIPANT_SCHEME, value);
    if (id == null) throw new Invalid(name + " is not a valid Peppol participant id: " + value);
    return id;
  }

  private static IDocumentTypeIdentifier documentType(String value) throws Invalid {
    IDocumentTypeIdentifier id = IDS.parseDocumentTypeIdentifier(value);
    if (id == null) throw new Invalid("documentTypeId is not a valid Peppol document type id (scheme::value)");
    return id;
  }

  private static IProcessIdentifier process(String value) throws Invalid {
    IProcessIdentifier id = IDS.parseProcessIdentifier(value);
    if (id == null) throw new Invalid("processId is not a valid Peppol process id (scheme::value)");
    return id;
  }

  private static String endpoint(String value) throws Invalid {
    try {
      URI uri = new URI(value);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) return value;
    } catch (Exception e) {
      // reported below
    }
    throw new Invalid("endpointUrl is not an http(s) URL");
  }

  private static X509Certificate certificate(String pem) throws Invalid {
    try {
      return Pem.decode(pem);
    } catch (CertificateException e) {
      throw new Invalid("receiverCertificate is not a PEM X.509 certificate: " + e.getMessage());
    }
  }

  private static byte[] sbd(String base64) throws Invalid {
    try {
      byte[] bytes = Base64.getDecoder().decode(base64.replaceAll("\\s", ""));
      if (bytes.length == 0) throw new Invalid("sbd is empty");
      return bytes;
    } catch (IllegalArgumentException e) {
      throw new Invalid("sbd is not valid base64: " + e.getMessage());
    }
  }
}
