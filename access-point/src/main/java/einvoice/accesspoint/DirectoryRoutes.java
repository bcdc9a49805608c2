package einvoice.accesspoint;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.sun.net.httpserver.HttpExchange;

/**
 * PUT and DELETE /directory/participants/{participant value}: our SMP tells the Peppol Directory
 * that a participant's business card is there to read (or gone), through the Directory's indexer
 * REST interface: `PUT {DIRECTORY_URL}/indexer/1.0/` with the participant id as the body, `DELETE
 * {DIRECTORY_URL}/indexer/1.0/{participant id}`, both authenticated by the SMP's client
 * certificate (the SML's, SML_KEYSTORE). The Directory then reads the card from our SMP
 * (`/businesscard/{participant id}`). Answers 200 with what was done, 503 when the Directory does
 * not answer, 422 when it refuses; without DIRECTORY_URL, 200 `skipped`: the Directory is optional
 * on the network (business cards are not mandated).
 */
final class DirectoryRoutes {
  static final String PREFIX = "/directory/participants/";
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  /** Null when DIRECTORY_URL (or the SML's client certificate) is not configured. */
  private final URI indexer;
  private final HttpClient http;

  DirectoryRoutes(SmlSettings sml) {
    String url = ApConfig.optional("DIRECTORY_URL", null);
    this.indexer = url == null || sml == null ? null : URI.create(url.replaceAll("/+$", "") + "/indexer/1.0/");
    this.http = sml == null ? null : HttpClient.newBuilder().sslContext(sml.tls()).connectTimeout(Duration.ofSeconds(10))
        .version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /** What /health says about the Directory. */
  Object describe() {
    return indexer == null ? "not configured (DIRECTORY_URL is not set)" : indexer.toString();
  }

  void handle(HttpExchange exchange) throws Exception {
    String value = exchange.getRequestURI().getPath().substring(PREFIX.length());
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    if (!method.equals("PUT") && !method.equals("DELETE")) {
      exchange.getResponseHeaders().set("Allow", "PUT, DELETE");
      Http.json(exchange, 405, Map.of("error", "method not allowed"));
      return;
    }
    if (PeppolIdentifierFactory.INSTANCE.createParticipantIdentifierWithDefaultScheme(value) == null) {
      Http.json(exchange, 400, Map.of("error", "'" + value + "' is not a Peppol participant value such as 0208:0123456749"));
      return;
    }
    if (indexer == null) {
      Http.json(exchange, 200, Map.of("status", "skipped", "reason", "the Peppol Directory is not configured (DIRECTORY_URL)"));
      return;
    }
    String participant = SmlClient.PARTICIPANT_SCHEME + "::" + value;
    HttpRequest request = method.equals("PUT")
        ? HttpRequest.newBuilder(indexer).timeout(TIMEOUT).header("Content-Type", "text/plain; charset=utf-8")
            .PUT(HttpRequest.BodyPublishers.ofString(participant)).build()
        : HttpRequest.newBuilder(indexer.resolve(URLEncoder.encode(participant, StandardCharsets.UTF_8))).timeout(TIMEOUT).DELETE().build();
    HttpResponse<String> answer;
    try {
      answer = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      Http.json(exchange, 503, error("the Peppol Directory at " + indexer + " did not answer: " + e.getMessage(), false));
      return;
    }
    int status = answer.statusCode();
    if (status >= 200 && status < 300) {
      Log.LOG.info("Directory: {} {}", method.equals("PUT") ? "published" : "removed", value);
      Http.json(exchange, 200, Map.of("status", method.equals("PUT") ? "published" : "removed"));
      return;
    }
    // 4xx: the Directory refuses (our certificate, the identifier); 5xx: it may answer later.
    boolean permanent = status < 500;
    Http.json(exchange, permanent ? 422 : 503, error("the Peppol Directory answered HTTP " + status + " to " + method + " " + value, permanent));
  }

  private static Map<String, Object> error(String message, boolean permanent) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    body.put("permanent", permanent);
    return body;
  }
}
