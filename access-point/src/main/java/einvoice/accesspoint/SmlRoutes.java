package einvoice.accesspoint;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import com.helger.json.IJson;
import com.helger.json.serialize.JsonReader;
import com.helger.peppolid.factory.PeppolIdentifierFactory;
import com.sun.net.httpserver.HttpExchange;

/**
 * PUT and DELETE /sml/participants/{participant value, e.g. 0208:0123456749}: our SMP's
 * participants registered in the SML (scheme iso6523-actorid-upis); a PUT whose JSON body names a
 * `migrationKey` takes the participant over from the SMP that gave the key (Migrate). PUT
 * /sml/participants/{value}/migration-key with a `migrationKey` lets another SMP take a participant
 * of ours over (PrepareToMigrate). Answers 200 with the state reached, 422 with a refusal no retry
 * mends, 503 when the SML cannot be reached or registration is not configured; both errors say
 * whether they are `permanent`; 400 for a value or body that is not one.
 */
final class SmlRoutes {
  static final String PREFIX = "/sml/participants/";
  private static final String MIGRATION_KEY = "/migration-key";

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
    String path = exchange.getRequestURI().getPath().substring(PREFIX.length());
    boolean prepare = path.endsWith(MIGRATION_KEY);
    String value = prepare ? path.substring(0, path.length() - MIGRATION_KEY.length()) : path;
    String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    if (!method.equals("PUT") && (prepare || !method.equals("DELETE"))) {
      exchange.getResponseHeaders().set("Allow", prepare ? "PUT" : "PUT, DELETE");
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
    String migrationKey;
    try {
      migrationKey = method.equals("PUT") ? migrationKey(Http.body(exchange), prepare) : null;
    } catch (IllegalArgumentException e) {
      Http.json(exchange, 400, Map.of("error", e.getMessage()));
      return;
    }
    long started = System.nanoTime();
    boolean register = method.equals("PUT");
    String status = prepare ? "prepared" : register ? "registered" : "unregistered";
    try {
      if (prepare) registrar.prepareMigration(value, migrationKey);
      else if (register) registrar.register(value, migrationKey);
      else registrar.unregister(value);
    } catch (SmlRegistrar.Failure failure) {
      Log.LOG.warn("SML: {} {} failed: {}", status, value, failure.getMessage());
      Http.json(exchange, failure.permanent ? 422 : 503, error(failure.getMessage(), failure.permanent));
      return;
    }
    Log.LOG.info("SML: {} {} for SMP {} in {} ms", value, status, registrar.settings().smpId(),
        (System.nanoTime() - started) / 1_000_000);
    Http.json(exchange, 200, Map.of("status", status));
  }

  /** The body's `migrationKey`: required to prepare a migration, optional to register (an empty body has none). */
  private static String migrationKey(byte[] body, boolean required) {
    if (body.length == 0 && !required) return null;
    IJson parsed = JsonReader.builder().source(body, StandardCharsets.UTF_8).customExceptionCallback(e -> {}).read();
    if (parsed == null || !parsed.isObject()) throw new IllegalArgumentException("the body must be a JSON object");
    Object key = parsed.getAsObject().getValue("migrationKey");
    if (key == null && !required) return null;
    // The SML's rule (SML 1.3.0, 2.2) is checked by the SML; here only that there is one to send.
    if (!(key instanceof String text) || text.isBlank() || text.length() > 100) {
      throw new IllegalArgumentException("migrationKey must be a string (the SML's rule: 8 to 24 characters)");
    }
    return text;
  }

  private static Map<String, Object> error(String message, boolean permanent) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    body.put("permanent", permanent);
    return body;
  }
}
