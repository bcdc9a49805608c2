package einvoice.accesspoint;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import com.helger.json.IJson;
import com.helger.json.IJsonObject;
import com.helger.json.convert.JsonConverter;
import com.helger.json.serialize.JsonReader;

/**
 * Our access point's sink: each verified message is posted to the service's intake
 * (AP_INBOUND_URL, bearer AP_INBOUND_TOKEN), which stores it durably before it answers 200 - only
 * then does phase4 send the receipt. 422 PEPPOL:NOT_SERVICED means the receiver is not one of ours
 * for that document, 422 MESSAGE_ID_REUSED that the message id came before with another sender,
 * receiver or payload (refused with EBMS:0003, nothing receipted); any other answer, no answer within 20 s, or no connection means the message
 * was not kept. A repeated message id is posted again: the intake knows what it already holds.
 */
final class ServiceIntake implements InboundSink {
  /** For the intake's answer: longer than it needs to store one message, well inside a sender's wait for its receipt. */
  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  /** The intake runs beside us: a connection that takes longer is not coming. */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** Enough of an unexpected answer to tell what went wrong, in our log. */
  private static final int ANSWER_IN_LOG = 300;

  private final ApConfig.Inbound inbound;
  private final HttpClient client;

  ServiceIntake(ApConfig.Inbound inbound) {
    this.inbound = inbound;
    // HTTP/1.1: the intake is a plain Node server on loopback, with nothing to upgrade to.
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
  }

  @Override
  public String keep(InboundMessage message) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(inbound.intakeUrl())
        .timeout(TIMEOUT)
        .header("Content-Type", "application/json")
        .header("Authorization", "Bearer " + inbound.intakeToken())
        .POST(HttpRequest.BodyPublishers.ofString(body(message)))
        .build();
    HttpResponse<String> answer;
    try {
      answer = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IOException("the service intake at " + inbound.intakeUrl() + " could not be reached: " + e, e);
    }
    if (answer.statusCode() == 200) return "stored by the service intake";
    if (answer.statusCode() == 422) {
      IJsonObject refusal = jsonObject(answer.body());
      Object why = refusal == null ? null : refusal.getValue("message");
      String said = why instanceof String text && !text.isBlank() ? text : null;
      if (refusal != null && InboundRefusal.NOT_SERVICED.equals(refusal.getValue("error"))) {
        throw InboundRefusal.notServiced(said != null ? said : "The receiver is not serviced by this access point");
      }
      if (refusal != null && InboundRefusal.MESSAGE_ID_REUSED.equals(refusal.getValue("error"))) {
        throw InboundRefusal.messageIdReused(said != null ? said : "The MessageId was used before for a different message");
      }
    }
    String text = answer.body();
    throw new IOException("the service intake answered HTTP " + answer.statusCode() + ": "
        + (text.length() > ANSWER_IN_LOG ? text.substring(0, ANSWER_IN_LOG) + "..." : text));
  }

  /** The intake's JSON contract (see docs/peppol-network.md, Our access point receives). */
  private static String body(InboundMessage message) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("messageId", message.messageId());
    body.put("conversationId", message.conversationId());
    body.put("senderId", message.senderId());
    body.put("receiverId", message.receiverId());
    body.put("documentTypeId", message.documentTypeId());
    body.put("processId", message.processId());
    body.put("countryC1", message.countryC1());
    body.put("fromPartyId", message.fromPartyId());
    body.put("senderCertificate", Pem.encode(message.senderCertificate()));
    body.put("receivedAt", message.receivedAt().toString());
    body.put("sbd", Base64.getEncoder().encodeToString(message.sbd()));
    return JsonConverter.convertToJson(body).getAsJsonString();
  }

  private static IJsonObject jsonObject(String text) {
    IJson parsed = JsonReader.builder().source(text).customExceptionCallback(e -> {}).read();
    return parsed != null && parsed.isObject() ? parsed.getAsObject() : null;
  }
}
