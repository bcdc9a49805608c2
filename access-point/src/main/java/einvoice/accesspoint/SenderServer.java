package einvoice.accesspoint;

import java.util.LinkedHashMap;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/**
 * OUR sending access point: POST /send hands one SBD to a receiving access point over Peppol AS4;
 * PUT/DELETE /sml/participants/{value} register our SMP's participants in the SML (SmlRoutes).
 */
final class SenderServer {
  private final ApConfig config;
  private final As4Sender sender;
  private final SmlRoutes sml;

  private SenderServer(ApConfig config, SmlSettings smlSettings) {
    this.config = config;
    this.sender = new As4Sender(config);
    this.sml = new SmlRoutes(smlSettings == null ? null : new SmlRegistrar(smlSettings));
  }

  static void start(ApConfig config) throws Exception {
    long started = System.nanoTime();
    Phase4Setup.init(config);
    SenderServer server = new SenderServer(config, SmlSettings.fromEnv());
    Http.start(config, Map.of("/", Http::notFound, "/health", server::health, "/send", server::send,
        SmlRoutes.PREFIX, server.sml::handle));
    Log.LOG.info("sending access point {} listening on http://{}:{} (started in {} ms)", config.seat(), config.bind(),
        config.port(), (System.nanoTime() - started) / 1_000_000);
  }

  private void health(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "GET", "/health")) return;
    Map<String, Object> cert = new LinkedHashMap<>();
    cert.put("subject", Certificates.subject(config.certificate()));
    cert.put("notAfter", config.certificate().getNotAfter().toInstant().toString());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("role", "sender");
    body.put("seat", config.seat());
    body.put("certificate", cert);
    body.put("sml", sml.describe());
    Http.json(exchange, 200, body);
  }

  private void send(HttpExchange exchange) throws Exception {
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
    Http.json(exchange, outcome.status(), outcome.body());
  }
}
