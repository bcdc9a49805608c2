package einvoice.accesspoint;

import java.io.InputStream;
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
    boolean revocationCheck) {

  /** Waiting for a receiving access point's answer: the default and the most (see As4Sender.httpSettings). */
  static final int MAX_SEND_TIMEOUT_MS = 30_000;
  /** Connecting to it, within that. */
  static final int CONNECT_TIMEOUT_MS = 10_000;

  static ApConfig fromEnv(boolean receiver) throws Exception {
    int port = Integer.parseInt(required("AP_PORT"));
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
    int timeout = Integer.parseInt(optional("AP_SEND_TIMEOUT_MS", String.valueOf(MAX_SEND_TIMEOUT_MS)));
    if (timeout < 1 || timeout > MAX_SEND_TIMEOUT_MS) {
      throw new IllegalArgumentException("AP_SEND_TIMEOUT_MS must be between 1 and " + MAX_SEND_TIMEOUT_MS);
    }
    Path inbox = receiver ? Files.createDirectories(Path.of(required("AP_INBOX_DIR")).toAbsolutePath()) : null;
    return new ApConfig(port, bind, keyStore, alias, keyPassword, cert, Certificates.commonName(cert), trustStore,
        trust, dataDir, timeout, inbox, revocationCheck);
  }

  private static KeyStore load(String file, String password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      store.load(in, password.toCharArray());
    }
    return store;
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
