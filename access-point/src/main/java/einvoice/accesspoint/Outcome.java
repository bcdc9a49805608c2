package einvoice.accesspoint;

import java.util.LinkedHashMap;
import java.util.Map;

/** The answer to POST /send: HTTP status plus JSON body, in the three shapes callers rely on. */
record Outcome(int status, Map<String, Object> body) {

  static Outcome delivered(String messageId, String receiptId, String receiptTimestamp, String receiverSeat) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("outcome", "delivered");
    body.put("messageId", messageId);
    body.put("receiptMessageId", receiptId);
    body.put("receiptTimestamp", receiptTimestamp);
    body.put("receiverSeat", receiverSeat);
    return new Outcome(200, body);
  }

  /** Final: sending the same message again cannot succeed. */
  static Outcome rejected(String error) {
    return failure(422, "rejected", true, error);
  }

  /** Transient: the same message (same message id) may be sent again later. */
  static Outcome failed(String error) {
    return failure(503, "failed", false, error);
  }

  private static Outcome failure(int status, String outcome, boolean permanent, String error) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("outcome", outcome);
    body.put("permanent", permanent);
    body.put("error", error);
    return new Outcome(status, body);
  }

  String summary() {
    return body.get("outcome") + (body.containsKey("error") ? " (" + body.get("error") + ")" : "");
  }
}
