package einvoice.accesspoint;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;

/**
 * The LOCAL RECEIVING ACCESS POINT STAND-IN of the local test Peppol network: a real Peppol AS4
 * endpoint that keeps what it receives in an inbox for people and tests, and sends like our access
 * point does (POST /send, the same code), keeping a list of what it sent (GET /sent) - the foreign
 * access point that delivers documents to us.
 */
final class ReceiverServer {
  static final String ROLE = "receiver (local Peppol network stand-in)";

  private final ApConfig config;
  private final Inbox inbox;
  private final As4Endpoint as4;
  private final SentLog sentLog;
  private final SendEndpoint send;

  private ReceiverServer(ApConfig config, Set<String> rejected) {
    this.config = config;
    this.inbox = new Inbox(config.inboxDir(), rejected);
    this.as4 = new As4Endpoint(config, ApConfig.optional("AP_ENDPOINT_URL", "http://" + config.bind() + ":" + config.port() + "/as4"), inbox);
    this.sentLog = new SentLog(config.dataDir().resolve(Path.of("sent.jsonl")));
    this.send = new SendEndpoint(config, sentLog);
  }

  static void start(ApConfig config) throws Exception {
    long started = System.nanoTime();
    Set<String> rejected = Arrays.stream(ApConfig.optional("AP_REJECT_RECEIVERS", "").split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).map(InboundProcessor::normalise).collect(Collectors.toSet());
    Phase4Setup.init(config);
    ReceiverServer server = new ReceiverServer(config, rejected);
    Http.start(config.bind(), config.port(), Map.of("/", Http::notFound, "/health", server::health, "/inbox", server::inbox,
        "/as4", server.as4::handle, "/send", server.send::handle, "/sent", server::sent));
    Log.LOG.info("LOCAL Peppol network stand-in: receiving access point {} listening on {} (inbox {}{}; sends at /send; started in {} ms)",
        config.seat(), server.as4.endpointUrl(), config.inboxDir(), rejected.isEmpty() ? "" : ", rejecting receivers " + rejected,
        (System.nanoTime() - started) / 1_000_000);
  }

  private void health(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "GET", "/health")) return;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("role", ROLE);
    body.put("seat", config.seat());
    Http.json(exchange, 200, body);
  }

  private void inbox(HttpExchange exchange) throws Exception {
    String path = exchange.getRequestURI().getPath();
    if (!exchange.getRequestMethod().equalsIgnoreCase("GET")) {
      Http.json(exchange, 405, Map.of("error", "method not allowed"));
    } else if (path.equals("/inbox") || path.equals("/inbox/")) {
      Http.json(exchange, 200, inbox.list());
    } else {
      byte[] sbd = inbox.read(path.substring("/inbox/".length()));
      if (sbd == null) Http.json(exchange, 404, Map.of("error", "not found"));
      else Http.send(exchange, 200, "application/xml", sbd);
    }
  }

  private void sent(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "GET", "/sent")) return;
    Http.json(exchange, 200, sentLog.list());
  }
}
