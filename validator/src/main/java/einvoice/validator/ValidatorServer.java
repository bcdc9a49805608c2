package einvoice.validator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * The official validator as a long-running service, so the rules are loaded and compiled once per
 * worker process rather than per document:
 *
 * <pre>
 *   GET    /health            → {"status":"ok","rule_set":{"id","name","valid_from"},
 *                                "lanes":{"send":{"permits","running","completed","stopped","lost"},"interactive":…,"public":…,
 *                                         "receive":…,"render":…,"view":…},
 *                                "pools":{"validate":{"workers","idle","warming","started","retired","recycle_after","pids"},"render":…}}
 *   POST   /validate?lane=send|interactive|public|receive|render|view&id=…&limit_ms=…  (body: the XML)
 *                             → {"rule_set","document_type","problem","valid","findings":[…]}
 *   POST   /render?format=pdf|html|facturx&lang=…&notice=…&lane=…&id=…&limit_ms=…  (body: a UBL Invoice or
 *                             CreditNote, or a CII invoice; a facturx only CII; a PDF's pages stamped with the notice, if any)
 *                             → the document as a person reads it ({@link Renderer}); 422 {"problem":"not_renderable"}
 *                               for anything else; the same lanes, limits and cancelling as /validate
 *   DELETE /validations/{id}  → 204 (stopped) or 404 (none runs under that id; renders included)
 * </pre>
 *
 * <p>This process holds the HTTP server and each lane's permits ({@link Validations}); every job
 * runs in a worker process of its kind ({@link WorkerPool}, {@link Worker}): sends (the default lane)
 * have one permit per core, every other lane half as many, so none can hold what sends need. A job
 * waits for a permit and runs for at most {@code limit_ms} in all (default and ceiling
 * {@link #MAX_LIMIT_MILLIS}); past it, or when its caller cancels it by the {@code id} it gave, its
 * worker is killed, it is answered 503, and its permit comes back once that process is gone. A
 * worker that dies without an answer is answered 503 {@code "stopped":"lost"}.
 *
 * The rule set follows the document (see {@link OfficialRules}): `document_type` is invoice,
 * credit_note, invoice_response, mls, tsr or eusr, and `rule_set` names the set that judged it.
 * A body that is not XML, or none of those kinds, is answered 200 with a `problem`
 * ({code, message}); findings are {rule, severity (fatal|warning), location, message}. Only the
 * service's own API and worker call it: it listens on loopback unless told otherwise, and trusts
 * them to bound the body size (it refuses bodies over MAX_BODY_BYTES all the same).
 *
 * Usage: java -jar peppol-validator.jar --port 8081 [--host 127.0.0.1] [--lane-permits send=2,view=1,…]
 *            [--recycle-after 1000] [--worker-heap 512m]
 */
public final class ValidatorServer {
  private static final int MAX_BODY_BYTES = 64 * 1024 * 1024;
  /** The longest any job may take; a large invoice with attachments validates in well under a second. */
  private static final long MAX_LIMIT_MILLIS = 60_000;

  private ValidatorServer() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(option(args, "--port", "8081"));
    String host = option(args, "--host", "127.0.0.1");
    Map<Validations.Lane, Integer> permits = lanePermits(option(args, "--lane-permits", ""), Runtime.getRuntime().availableProcessors());
    int recycleAfter = Integer.parseInt(option(args, "--recycle-after", "1000"));
    List<String> java = workerCommand(option(args, "--worker-heap", "512m"));
    Map<WorkerPool.Kind, WorkerPool> pools = new EnumMap<>(WorkerPool.Kind.class);
    for (WorkerPool.Kind kind : WorkerPool.Kind.values()) {
      int size = permits.entrySet().stream().filter((lane) -> lane.getKey().kind == kind).mapToInt(Map.Entry::getValue).sum();
      pools.put(kind, new WorkerPool(kind, size, recycleAfter, java));
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> pools.values().forEach(WorkerPool::stop)));
    // A worker compiles its rule sets or stylesheets and runs its warm-up documents before it takes a
    // job; the port opens once the first of each kind is warm, so a listening service is a ready one.
    pools.values().forEach(WorkerPool::start);
    for (WorkerPool pool : pools.values()) {
      pool.awaitWarm();
    }
    Validations validations = new Validations(permits, pools);
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 64);
    server.createContext("/health", exchange -> {
      if (!exchange.getRequestMethod().equals("GET")) {
        answer(exchange, Answer.json(405, new Json().begin('{').key("error").value("method not allowed").end('}')));
        return;
      }
      Json health = new Json().begin('{').key("status").value("ok").key("rule_set").raw(pools.get(WorkerPool.Kind.VALIDATE).ready()).key("lanes");
      health = lanes(health, validations).key("pools").begin('{');
      for (WorkerPool pool : pools.values()) {
        pool.health(health.key(pool.kind().name().toLowerCase(Locale.ROOT)));
      }
      answer(exchange, Answer.json(200, health.end('}').end('}')));
    });
    server.createContext("/validate", underLane(validations, (query, body) -> new Job(WorkerPool.Kind.VALIDATE, "", "", "", body)));
    server.createContext("/render", underLane(validations,
        (query, body) -> new Job(WorkerPool.Kind.RENDER, query.getOrDefault("format", "pdf"), query.getOrDefault("lang", "en"),
            query.getOrDefault("notice", ""), body)));
    server.createContext("/validations/", exchange -> {
      if (!exchange.getRequestMethod().equals("DELETE")) {
        answer(exchange, Answer.json(405, new Json().begin('{').key("error").value("method not allowed").end('}')));
        return;
      }
      String id = exchange.getRequestURI().getPath().substring("/validations/".length());
      boolean stopped = validations.cancel(id);
      exchange.sendResponseHeaders(stopped ? 204 : 404, -1);
      exchange.close();
    });
    // Requests get threads as they come, so /health answers while jobs queue; the permits bound how many run.
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    System.err.println("peppol-validator: " + pools.get(WorkerPool.Kind.VALIDATE).ready() + " listening on " + host + ":" + port
        + " (Java " + Runtime.version().feature() + ")");
  }

  /** Each lane's permits: its default, unless {@code overrides} ("send=2,view=1") names it. */
  static Map<Validations.Lane, Integer> lanePermits(String overrides, int cores) {
    Map<Validations.Lane, Integer> permits = new EnumMap<>(Validations.Lane.class);
    for (Validations.Lane lane : Validations.Lane.values()) {
      permits.put(lane, lane.defaultPermits(cores));
    }
    for (String pair : overrides.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      String[] parts = pair.trim().split("=", 2);
      int count = Integer.parseInt(parts.length == 2 ? parts[1].trim() : "");
      if (count < 0) {
        throw new IllegalArgumentException("--lane-permits: " + pair + " is negative");
      }
      permits.put(Validations.Lane.named(parts[0].trim()), count);
    }
    return permits;
  }

  /**
   * How a worker is started: this Java, this jar, its own heap. The serial collector keeps an idle
   * worker's memory near what it holds (one job at a time needs no parallel collector), and a worker
   * out of memory ends (its job is answered as lost) rather than limp on.
   */
  private static List<String> workerCommand(String heap) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    String jar = Path.of(ValidatorServer.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    return List.of(java, "-Xmx" + heap, "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError", "-cp", jar, Worker.class.getName());
  }

  /** A request's job, from its query and body. */
  private interface JobOf {
    Job of(Map<String, String> query, byte[] body);
  }

  /**
   * The handler of a POST whose work runs in a worker: the body bounded, the lane, id and limit read
   * from the query ({@code lane}, {@code id}, {@code limit_ms}), and the outcomes every such request shares.
   */
  private static HttpHandler underLane(Validations validations, JobOf jobOf) {
    return exchange -> {
      try {
        if (!exchange.getRequestMethod().equals("POST")) {
          answer(exchange, Answer.json(405, new Json().begin('{').key("error").value("method not allowed").end('}')));
          return;
        }
        byte[] body = readBody(exchange.getRequestBody());
        if (body == null) {
          answer(exchange, Answer.json(413, new Json().begin('{').key("error").value("body over " + MAX_BODY_BYTES + " bytes").end('}')));
          return;
        }
        Map<String, String> query = query(exchange);
        Validations.Lane lane = Validations.Lane.named(query.get("lane"));
        long limit = Math.min(MAX_LIMIT_MILLIS, Math.max(1, parseLong(query.get("limit_ms"), MAX_LIMIT_MILLIS)));
        answer(exchange, validations.run(lane, query.get("id"), limit, jobOf.of(query, body)));
      } catch (Validations.Stopped e) {
        answer(exchange, Answer.json(503, new Json().begin('{').key("error").value(e.getMessage()).key("stopped").value(e.reason).end('}')));
      } catch (IllegalArgumentException e) {
        // An unknown lane, or an id already running.
        answer(exchange, Answer.json(409, new Json().begin('{').key("error").value(e.getMessage()).end('}')));
      } catch (Exception e) {
        e.printStackTrace();
        answer(exchange, Answer.json(500, new Json().begin('{').key("error").value(String.valueOf(e.getMessage())).end('}')));
      }
    };
  }

  /** Each lane: its permits, jobs running now (until their worker is back or gone), and how many ended each way. */
  private static Json lanes(Json json, Validations validations) {
    json.begin('{');
    for (Map.Entry<Validations.Lane, Validations.LaneCounts> lane : validations.counts().entrySet()) {
      Validations.LaneCounts counts = lane.getValue();
      json.key(lane.getKey().label()).begin('{').key("permits").value(counts.permits)
          .key("running").value(counts.running.get()).key("completed").value(counts.completed.get())
          .key("stopped").value(counts.stopped.get()).key("lost").value(counts.lost.get()).end('}');
    }
    return json.end('}');
  }

  /** The whole body, or null when it is larger than MAX_BODY_BYTES. */
  private static byte[] readBody(InputStream in) throws IOException {
    try (in) {
      byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
      return body.length > MAX_BODY_BYTES ? null : body;
    }
  }

  private static void answer(HttpExchange exchange, Answer answer) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", answer.contentType());
    exchange.sendResponseHeaders(answer.status(), answer.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(answer.body());
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
