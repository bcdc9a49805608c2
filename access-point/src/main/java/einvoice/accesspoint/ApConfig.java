package einvoice.accesspoint;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;

/** The access point's settings, all from environment variables, checked once at start. */
record ApConfig(
    int port,
    String bind,
    KeyStore keyStore,
    String keyAlias,
    char[] keyPassword,
    X509Certificate certificate,
    String seat,
    KeyStore trustStore,
    Trust trust,
    Path dataDir,
    int sendTimeoutMs,
    Path inboxDir,
    boolean revocationCheck,
    int maxInboundBytes,
    Inbound inbound) {

  /**
   * Our access point's receiving side (sender role, when AP_INBOUND_URL is set): AS4 arrives on its
   * own port, published as endpointUrl in the SMP, and each verified message goes to the service's
   * intake.
   */
  record Inbound(String bind, int port, String endpointUrl, URI intakeUrl, String intakeToken) {}

  /** The largest SBD accepted by default: far above any Peppol business document met in practice. */
  static final int DEFAULT_MAX_INBOUND_BYTES = 10 * 1024 * 1024;

  /** Waiting for a receiving access point's answer: the default and the most (see As4Sender.httpSettings). */
  static final int MAX_SEND_TIMEOUT_MS = 30_000;
  /** Connecting to it, within that. */
  static final int CONNECT_TIMEOUT_MS = 10_000;

  static ApConfig fromEnv(boolean receiver) throws Exception {
    int port = integer("AP_PORT", null, 1, 65535);
    // Loopback by default: the sender's API has no authentication of its own.
    String bind = optional("AP_BIND", "127.0.0.1");
    KeyStore keyStore = load(required("AP_KEYSTORE"), required("AP_KEYSTORE_PASSWORD"));
    String alias = required("AP_KEY_ALIAS");
    char[] keyPassword = required("AP_KEY_PASSWORD").toCharArray();
    if (!keyStore.isKeyEntry(alias)) throw new IllegalArgumentException("AP_KEYSTORE has no key entry '" + alias + "'");
    keyStore.getKey(alias, keyPassword); // fails now, not at the first message, on a wrong key password
    X509Certificate cert = (X509Certificate) keyStore.getCertificate(alias);
    KeyStore trustStore = load(required("AP_TRUSTSTORE"), required("AP_TRUSTSTORE_PASSWORD"));
    // On by default, as Peppol requires of access points; only a test PKI without CRL or OCSP turns it off.
    boolean revocationCheck = Boolean.parseBoolean(optional("AP_REVOCATION_CHECK", "true"));
    Trust trust = Trust.of(trustStore, revocationCheck);
    Path dataDir = Files.createDirectories(Path.of(required("AP_DATA_DIR")).toAbsolutePath());
    int timeout = integer("AP_SEND_TIMEOUT_MS", MAX_SEND_TIMEOUT_MS, 1, MAX_SEND_TIMEOUT_MS);
    Path inbox = receiver ? Files.createDirectories(Path.of(required("AP_INBOX_DIR")).toAbsolutePath()) : null;
    int maxInbound = integer("AP_MAX_INBOUND_BYTES", DEFAULT_MAX_INBOUND_BYTES, 1, Http.MAX_BODY);
    // The seat is the certificate's CN, as Peppol requires. The stand-in (receiver role) alone may claim another,
    // AP_TEST_CLAIMED_SEAT, to play an access point that speaks as someone else (the check a receiver makes).
    String seat = receiver ? optional("AP_TEST_CLAIMED_SEAT", Certificates.commonName(cert)) : Certificates.commonName(cert);
    return new ApConfig(port, bind, keyStore, alias, keyPassword, cert, seat, trustStore,
        trust, dataDir, timeout, inbox, revocationCheck, maxInbound, receiver ? null : inboundFromEnv());
  }

  /** The receiving side of our access point, or null when AP_INBOUND_URL is not set (it then only sends). */
  private static Inbound inboundFromEnv() {
    String intake = optional("AP_INBOUND_URL", null);
    if (intake == null) return null;
    URI intakeUrl;
    try {
      intakeUrl = new URI(intake);
    } catch (Exception e) {
      throw new IllegalArgumentException("AP_INBOUND_URL is not a URL: " + e.getMessage());
    }
    if (!("http".equals(intakeUrl.getScheme()) || "https".equals(intakeUrl.getScheme())) || intakeUrl.getHost() == null) {
      throw new IllegalArgumentException("AP_INBOUND_URL must be an http(s) URL");
    }
    // Every interface by default: other access points reach this port (through TLS termination in front of it).
    return new Inbound(optional("AP_AS4_BIND", "0.0.0.0"), integer("AP_AS4_PORT", null, 1, 65535),
        required("AP_ENDPOINT_URL"), intakeUrl, required("AP_INBOUND_TOKEN"));
  }

  private static KeyStore load(String file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      store.load(in, password.toCharArray());
    }
    return store;
  }

  /** A whole number within bounds; `fallback` null makes the variable required. */
  private static int integer(String name, Integer fallback, int min, int max) {
    String value = fallback == null ? required(name) : optional(name, String.valueOf(fallback));
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed >= min && parsed <= max) return parsed;
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be a whole number between " + min + " and " + max + ", not '" + value + "'");
  }

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) throw new IllegalArgumentException("environment variable " + name + " is not set");
    return value;
  }

  static String optional(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
