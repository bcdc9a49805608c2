package einvoice.accesspoint;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.sun.net.httpserver.HttpExchange;

/**
 * PUT and DELETE /sml/participants/{participant value, e.g. 0208:0123456749}: our SMP's
 * participants registered in the SML (scheme iso6523-actorid-upis). Answers 200 with the state
 * reached, 422 with a refusal no retry mends, 503 when the SML cannot be reached or registration
 * is not configured; both errors say whether they are `permanent`.
 */
final class SmlRoutes {
  static final String PREFIX = "/sml/participants/";

  /** Null when SML_URL is not set. */
  private final SmlRegistrar registrar;

  SmlRoutes(SmlRegistrar registrar) {
    this.registrar = registrar;
  }

  /** What /health says about registration. */
  Object describe() {
    if (registrar == null) return "not configured (SML_URL is not set)";
    Map<String, Object> sml = new LinkedHashMap<>();
    sml.put("url", registrar.settings().url().toString());
    sml.put("smpId", registrar.settings().smpId());
    sml.put("smpUrl", registrar.settings().smpUrl());
    return sml;
  }

  void handle(HttpExchange exchange) throws Exception {
    String value = exchange.getRequestURI().getPath().substring(PREFIX.length());
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    if (!method.equals("PUT") && !method.equals("DELETE")) {
      exchange.getResponseHeaders().set("Allow", "PUT, DELETE");
      Http.json(exchange, 405, Map.of("error", "method not allowed"));
      return;
    }
    // The Peppol rules for a participant value (ISO 6523 ICD, colon, at most 50 characters, ...).
    if (PeppolIdentifierFactory.INSTANCE.createParticipantIdentifierWithDefaultScheme(value) == null) {
      Http.json(exchange, 400, Map.of("error", "'" + value + "' is not a Peppol participant value such as 0208:0123456749"));
      return;
    }
    if (registrar == null) {
      Http.json(exchange, 503, error("SML registration is not configured on this access point: set SML_URL, SML_SMP_ID, "
          + "SML_SMP_URL, SML_SMP_IP, SML_KEYSTORE, SML_KEYSTORE_PASSWORD and SML_KEY_ALIAS", false));
      return;
    }
    long started = System.nanoTime();
    boolean register = method.equals("PUT");
    try {
      if (register) registrar.register(value);
      else registrar.unregister(value);
    } catch (SmlRegistrar.Failure failure) {
      Log.LOG.warn("SML: {} {} failed: {}", register ? "registering" : "unregistering", value, failure.getMessage());
      Http.json(exchange, failure.permanent ? 422 : 503, error(failure.getMessage(), failure.permanent));
      return;
    }
    String status = register ? "registered" : "unregistered";
    Log.LOG.info("SML: {} {} for SMP {} in {} ms", value, status, registrar.settings().smpId(),
        (System.nanoTime() - started) / 1_000_000);
    Http.json(exchange, 200, Map.of("status", status));
  }

  private static Map<String, Object> error(String message, boolean permanent) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    body.put("permanent", permanent);
    return body;
  }
}
