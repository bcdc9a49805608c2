package einvoice.accesspoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;

import com.helger.json.convert.JsonConverter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** The JDK's built-in HTTP server with the few helpers both roles share. */
final class Http {
  /** Requests above this size are refused: an SBD of this size is not a Peppol business document. */
  static final int MAX_BODY = 100 * 1024 * 1024;

  private Http() {}

  /** A route; any exception becomes a logged 500 instead of a dropped connection. */
  interface Handler {
    void handle(HttpExchange exchange) throws Exception;
  }

  static HttpServer start(String bind, int port, Map<String, Handler> routes) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(bind, port), 64);
    routes.forEach((path, handler) -> server.createContext(path, exchange -> {
      try (exchange) {
        handler.handle(exchange);
      } catch (Exception e) {
        Log.LOG.error("unhandled error on " + exchange.getRequestURI(), e);
        try {
          json(exchange, 500, Map.of("error", "internal error: " + e));
        } catch (IOException | RuntimeException ignored) {
          // headers may already be out; nothing more to tell the client
        }
      }
    }));
    // Requests run concurrently: one slow AS4 peer must not hold up the others.
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
    return server;
  }

  static byte[] body(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      byte[] bytes = in.readNBytes(MAX_BODY + 1);
      if (bytes.length > MAX_BODY) throw new IOException("request body larger than " + MAX_BODY + " bytes");
      return bytes;
    }
  }

  /** Maps, lists, strings, numbers and booleans, written as JSON. */
  static void json(HttpExchange exchange, int status, Object body) throws IOException {
    send(exchange, status, "application/json; charset=utf-8", JsonConverter.convertToJson(body).getAsJsonString().getBytes(StandardCharsets.UTF_8));
  }

  static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  static void notFound(HttpExchange exchange) throws IOException {
    json(exchange, 404, Map.of("error", "not found"));
  }

  /** Answers 405/404 unless method and exact path match; true when the request may proceed. */
  static boolean route(HttpExchange exchange, String method, String path) throws IOException {
    if (!exchange.getRequestURI().getPath().equals(path)) {
      notFound(exchange);
      return false;
    }
    if (!exchange.getRequestMethod().equalsIgnoreCase(method)) {
      exchange.getResponseHeaders().set("Allow", method);
      json(exchange, 405, Map.of("error", "method not allowed"));
      return false;
    }
    return true;
  }
}
