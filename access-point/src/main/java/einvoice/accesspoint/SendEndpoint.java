package einvoice.accesspoint;

import java.io.IOException;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/** POST /send: one SBD to a receiving access point over Peppol AS4. Both roles send through it. */
final class SendEndpoint {
  /** Told about every send that was attempted, with its outcome. */
  interface Listener {
    void sent(SendRequest request, Outcome outcome) throws IOException;
  }

  private final ApConfig config;
  private final As4Sender sender;
  private final Listener listener;

  SendEndpoint(ApConfig config, Listener listener) {
    this.config = config;
    this.sender = new As4Sender(config);
    this.listener = listener;
  }

  void handle(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "POST", "/send")) return;
    SendRequest request;
    try {
      request = SendRequest.parse(Http.body(exchange));
    } catch (SendRequest.Invalid e) {
      Http.json(exchange, 400, Map.of("error", e.getMessage()));
      return;
    }
    long started = System.nanoTime();
    Outcome outcome = sender.send(request);
    Log.LOG.info("sent message {} from {} ({}) to {} at {}: {} in {} ms", request.messageId(),
        request.sender().getURIEncoded(), config.seat(), request.receiver().getURIEncoded(), request.endpointUrl(),
        outcome.summary(), (System.nanoTime() - started) / 1_000_000);
    listener.sent(request, outcome);
    Http.json(exchange, outcome.status(), outcome.body());
  }
}
