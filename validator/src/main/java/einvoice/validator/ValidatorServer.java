package einvoice.validator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The official validator as a long-running service, so the rules are loaded and compiled once:
 *
 * <pre>
 *   GET  /health    → {"status":"ok","rule_set":{"id","name","valid_from"}}
 *   POST /validate  (body: the XML) → {"rule_set","document_type","problem","valid","findings":[…]}
 * </pre>
 *
 * A body that is not XML, or not a UBL Invoice or CreditNote, is answered 200 with a `problem`
 * ({code, message}); findings are {rule, severity (fatal|warning), location, message}. Only the
 * service's own API and worker call it: it listens on loopback unless told otherwise, and trusts
 * them to bound the body size (it refuses bodies over MAX_BODY_BYTES all the same).
 *
 * Usage: java -jar peppol-validator.jar --port 8081 [--host 127.0.0.1]
 */
public final class ValidatorServer {
  private static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  private ValidatorServer() {}

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(option(args, "--port", "8081"));
    String host = option(args, "--host", "127.0.0.1");
    // Loading and compiling the schematrons takes seconds: done before the port opens, so a
    // listening service is a ready one.
    OfficialRules rules = new OfficialRules();
    Semaphore validations = new Semaphore(Math.max(1, Runtime.getRuntime().availableProcessors()));
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
    server.createContext("/health", exchange -> {
      if (!exchange.getRequestMethod().equals("GET")) {
        answer(exchange, 405, new Json().begin('{').key("error").value("method not allowed").end('}'));
        return;
      }
      answer(exchange, 200, ruleSet(new Json().begin('{').key("status").value("ok").key("rule_set"), rules).end('}'));
    });
    server.createContext("/validate", exchange -> {
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
        OfficialRules.Report report;
        validations.acquireUninterruptibly();
        try {
          report = rules.validate(body);
        } finally {
          validations.release();
        }
        answer(exchange, 200, report(report, rules));
      } catch (RuntimeException e) {
        // The engine failed, not the document: a 500 the caller retries, never a verdict.
        e.printStackTrace();
        answer(exchange, 500, new Json().begin('{').key("error").value(String.valueOf(e.getMessage())).end('}'));
      }
    });
    // Requests get threads as they come, so /health answers while validations queue; validation is
    // CPU-bound, so only one per core runs at a time.
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    System.err.println("peppol-validator: " + rules.ruleSet().id() + " (" + rules.ruleSet().name()
        + ") listening on " + host + ":" + port);
  }

  private static Json ruleSet(Json json, OfficialRules rules) {
    OfficialRules.RuleSet set = rules.ruleSet();
    return json.begin('{').key("id").value(set.id()).key("name").value(set.name())
        .key("valid_from").value(set.validFrom()).end('}');
  }

  private static Json report(OfficialRules.Report report, OfficialRules rules) {
    Json json = new Json().begin('{').key("rule_set").value(rules.ruleSet().id())
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

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals(name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
