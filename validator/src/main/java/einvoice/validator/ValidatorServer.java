package einvoice.validator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The official validator as a long-running service, so the rules are loaded and compiled once:
 *
 * <pre>
 *   GET    /health            → {"status":"ok","rule_set":{"id","name","valid_from"},
 *                                "lanes":{"send":{"permits","running","completed","stopped"},"interactive":…,"receive":…,"render":…}}
 *   POST   /validate?lane=send|interactive|receive|render&id=…&limit_ms=…  (body: the XML)
 *                             → {"rule_set","document_type","problem","valid","findings":[…]}
 *   POST   /render?format=pdf|html&lang=…&lane=…&id=…&limit_ms=…  (body: a UBL Invoice or CreditNote)
 *                             → the document as a person reads it ({@link Renderer}); 422 {"problem":"not_renderable"}
 *                               for anything else; the same lanes, limits and cancelling as /validate
 *   DELETE /validations/{id}  → 204 (stopped) or 404 (none runs under that id; renders included)
 * </pre>
 *
 * <p>Each lane has its own permits ({@link Validations}): sends (the default lane) one per core,
 * interactive requests (the public validator, renderings asked for), received documents and
 * renderings for deliveries half as many each, so those can never hold what sends need. A validation waits for a permit and runs for at most {@code limit_ms} in all (default and
 * ceiling {@link #MAX_LIMIT_MILLIS}); past it, or when its caller cancels it by the {@code id} it
 * gave, it is stopped and answered 503, and its permit comes back.
 *
 * The rule set follows the document (see {@link OfficialRules}): `document_type` is invoice,
 * credit_note, invoice_response, mls, tsr or eusr, and `rule_set` names the set that judged it.
 * A body that is not XML, or none of those kinds, is answered 200 with a `problem`
 * ({code, message}); findings are {rule, severity (fatal|warning), location, message}. Only the
 * service's own API and worker call it: it listens on loopback unless told otherwise, and trusts
 * them to bound the body size (it refuses bodies over MAX_BODY_BYTES all the same).
 *
 * Usage: java -jar peppol-validator.jar --port 8081 [--host 127.0.0.1]
 */
public final class ValidatorServer {
  private static final int MAX_BODY_BYTES = 64 * 1024 * 1024;
  /** The longest any validation may take; a large invoice with attachments takes well under a second. */
  private static final long MAX_LIMIT_MILLIS = 60_000;

  private ValidatorServer() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(option(args, "--port", "8081"));
    String host = option(args, "--host", "127.0.0.1");
    Validations.requireThreadStop();
    // Loading and compiling the schematrons takes seconds: done before the port opens, so a
    // listening service is a ready one.
    OfficialRules rules = new OfficialRules();
    warmUp(rules);
    Renderer renderer = new Renderer();
    warmUp(renderer);
    Validations validations = new Validations(Runtime.getRuntime().availableProcessors());
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
    server.createContext("/health", exchange -> {
      if (!exchange.getRequestMethod().equals("GET")) {
        answer(exchange, 405, new Json().begin('{').key("error").value("method not allowed").end('}'));
        return;
      }
      answer(exchange, 200, lanes(ruleSet(new Json().begin('{').key("status").value("ok").key("rule_set"), rules).key("lanes"), validations).end('}'));
    });
    server.createContext("/validate", underLane(validations, (exchange, body, query, run) -> {
      OfficialRules.Report report = run.call(() -> rules.validate(body));
      answer(exchange, 200, report(report, rules));
    }));
    server.createContext("/render", underLane(validations, (exchange, body, query, run) -> {
      Renderer.Format format = Renderer.Format.named(query.getOrDefault("format", "pdf"));
      String lang = query.getOrDefault("lang", "en");
      byte[] rendered;
      try {
        rendered = run.call(() -> renderer.render(body, format, lang));
      } catch (Renderer.NotRenderable e) {
        answer(exchange, 422, new Json().begin('{').key("error").value(e.getMessage()).key("problem").value("not_renderable").end('}'));
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", format.contentType);
      exchange.sendResponseHeaders(200, rendered.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(rendered);
      }
    }));
    server.createContext("/validations/", exchange -> {
      if (!exchange.getRequestMethod().equals("DELETE")) {
        answer(exchange, 405, new Json().begin('{').key("error").value("method not allowed").end('}'));
        return;
      }
      String id = exchange.getRequestURI().getPath().substring("/validations/".length());
      boolean stopped = validations.cancel(id);
      exchange.sendResponseHeaders(stopped ? 204 : 404, -1);
      exchange.close();
    });
    // Requests get threads as they come, so /health answers while validations queue; validation is
    // CPU-bound, so only one per core runs at a time.
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    System.err.println("peppol-validator: " + rules.ruleSet().id() + " (" + rules.ruleSet().name()
        + ") listening on " + host + ":" + port);
  }

  /** A POST whose heavy part runs under a lane's permit and time limit ({@link Validations}). */
  private interface LaneRequest {
    void handle(HttpExchange exchange, byte[] body, Map<String, String> query, LaneRun run) throws Exception;
  }

  /** Runs work under the request's lane, id and time limit. */
  private interface LaneRun {
    <T> T call(Validations.Work<T> work) throws Exception;
  }

  /**
   * The handler of a {@link LaneRequest}: the body bounded, the lane, id and limit read from the
   * query ({@code lane}, {@code id}, {@code limit_ms}), and the outcomes every such request shares.
   */
  private static HttpHandler underLane(Validations validations, LaneRequest request) {
    return exchange -> {
      try {
        if (!exchange.getRequestMethod().equals("POST")) {
          answer(exchange, 405, new Json().begin('{').key("error").value("method not allowed").end('}'));
          return;
        }
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
          answer(exchange, 413, new Json().begin('{').key("error").value("body over " + MAX_BODY_BYTES + " bytes").end('}'));
          return;
        }
        Map<String, String> query = query(exchange);
        Validations.Lane lane = Validations.Lane.named(query.get("lane"));
        long limit = Math.min(MAX_LIMIT_MILLIS, Math.max(1, parseLong(query.get("limit_ms"), MAX_LIMIT_MILLIS)));
        request.handle(exchange, body, query, new LaneRun() {
          @Override
          public <T> T call(Validations.Work<T> work) throws Exception {
            return validations.run(lane, query.get("id"), limit, work);
          }
        });
      } catch (Validations.Stopped e) {
        answer(exchange, 503, new Json().begin('{').key("error").value(e.getMessage()).key("stopped").value(e.reason).end('}'));
      } catch (IllegalArgumentException e) {
        // An unknown lane, format or language, or an id already running.
        answer(exchange, 409, new Json().begin('{').key("error").value(e.getMessage()).end('}'));
      } catch (Exception e) {
        // The engine failed, not the document: a 500 the caller retries, never a verdict.
        e.printStackTrace();
        answer(exchange, 500, new Json().begin('{').key("error").value(String.valueOf(e.getMessage())).end('}'));
      }
    };
  }

  /** The stylesheets, too, compile parts of themselves on first use: each format once, before the port opens. */
  private static void warmUp(Renderer renderer) throws IOException {
    try (InputStream in = ValidatorServer.class.getResourceAsStream("/warm-up/invoice.xml")) {
      byte[] document = in.readAllBytes();
      for (Renderer.Format format : Renderer.Format.values()) {
        renderer.render(document, format, "en");
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("the renderer failed on the warm-up invoice: " + e.getMessage(), e);
    }
  }

  /**
   * The engine compiles much of a rule set on its first document (seconds), so one invoice and one
   * credit note go through before the port opens: no caller waits for that, and no time limit can
   * stop a validation halfway through it. Both documents are valid; one that is not means the
   * rules or the engine changed, and the service refuses to start.
   */
  private static void warmUp(OfficialRules rules) throws IOException {
    for (String name : new String[] {"invoice.xml", "credit-note.xml"}) {
      byte[] document;
      try (InputStream in = ValidatorServer.class.getResourceAsStream("/warm-up/" + name)) {
        document = in.readAllBytes();
      }
      if (!rules.validate(document).valid()) {
        throw new IllegalStateException("the warm-up document " + name + " is not valid under " + rules.ruleSet().id());
      }
    }
  }

  private static Json ruleSet(Json json, OfficialRules rules) {
    OfficialRules.RuleSet set = rules.ruleSet();
    return json.begin('{').key("id").value(set.id()).key("name").value(set.name())
        .key("valid_from").value(set.validFrom()).end('}');
  }

  /** Each lane: its permits, validations running now (until their threads have ended), completed and stopped so far. */
  private static Json lanes(Json json, Validations validations) {
    json.begin('{');
    for (Map.Entry<Validations.Lane, Validations.LaneCounts> lane : validations.counts().entrySet()) {
      Validations.LaneCounts counts = lane.getValue();
      json.key(lane.getKey().name().toLowerCase(java.util.Locale.ROOT)).begin('{').key("permits").value(counts.permits)
          .key("running").value(counts.running.get()).key("completed").value(counts.completed.get())
          .key("stopped").value(counts.stopped.get()).end('}');
    }
    return json.end('}');
  }

  private static Json report(OfficialRules.Report report, OfficialRules rules) {
    // A body no rule set fits names the billing release, as it always did.
    Json json = new Json().begin('{').key("rule_set").value(report.ruleSet() != null ? report.ruleSet() : rules.ruleSet().id())
        .key("document_type").value(report.documentType()).key("problem");
    if (report.problem() == null) {
      json.value((String) null);
    } else {
      json.begin('{').key("code").value(report.problem().code()).key("message").value(report.problem().message()).end('}');
    }
    json.key("valid").value(report.valid()).key("findings").begin('[');
    for (OfficialRules.Finding finding : report.findings()) {
      json.begin('{').key("rule").value(finding.rule()).key("severity").value(finding.fatal() ? "fatal" : "warning")
          .key("location").value(finding.location()).key("message").value(finding.message()).end('}');
    }
    return json.end(']').end('}');
  }

  /** The whole body, or null when it is larger than MAX_BODY_BYTES. */
  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      return body.length > MAX_BODY_BYTES ? null : body;
    }
  }

  private static void answer(HttpExchange exchange, int status, Json json) throws IOException {
    byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> values = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null) {
      return values;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        values.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  private static long parseLong(String text, long fallback) {
    try {
      return text == null ? fallback : Long.parseLong(text);
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
