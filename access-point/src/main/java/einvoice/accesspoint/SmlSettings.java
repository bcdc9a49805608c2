package einvoice.accesspoint;

import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Where and as whom our SMP registers participants in the SML (SML_* variables), checked once at
 * start. The SML knows an SMP by its SMP ID (assigned by OpenPeppol) and authenticates it by its
 * client certificate: the SMP certificate, from the Peppol SMP CA.
 */
record SmlSettings(
    /** The management base URL: the services are at /manageservicemetadata and /manageparticipantidentifier. */
    URI url,
    String smpId,
    /** The SMP's URL, which the SML publishes in every participant's NAPTR record. */
    String smpUrl,
    /** The SMP's IPv4 address, which the SML keeps beside it (the target of its old CNAME records). */
    String smpIp,
    SSLContext tls) {

  private static final String[] REQUIRED = {
      "SML_SMP_ID", "SML_SMP_URL", "SML_SMP_IP", "SML_KEYSTORE", "SML_KEYSTORE_PASSWORD", "SML_KEY_ALIAS"};

  /** Null when SML_URL is not set: this access point then registers nothing. */
  static SmlSettings fromEnv() throws Exception {
    String url = ApConfig.optional("SML_URL", null);
    if (url == null) return null;
    for (String name : REQUIRED) {
      if (ApConfig.optional(name, null) == null) {
        throw new IllegalArgumentException("SML_URL is set, so " + name + " must be set too");
      }
    }
    URI base = httpUrl("SML_URL", url.replaceAll("/+$", ""));
    // The SML authenticates the SMP by its client certificate, which plain HTTP cannot carry.
    if (!base.getScheme().equals("https")) throw new IllegalArgumentException("SML_URL must be an https:// URL");
    String smpUrl = httpUrl("SML_SMP_URL", System.getenv("SML_SMP_URL")).toString();
    String smpIp = System.getenv("SML_SMP_IP");
    if (!isIpv4(smpIp)) {
      throw new IllegalArgumentException("SML_SMP_IP must be an IPv4 address such as 203.0.113.7, not " + smpIp);
    }
    return new SmlSettings(base, System.getenv("SML_SMP_ID"), smpUrl, smpIp, clientTls());
  }

  private static boolean isIpv4(String text) {
    if (!text.matches("\\d{1,3}(\\.\\d{1,3}){3}")) return false;
    for (String octet : text.split("\\.")) {
      if (Integer.parseInt(octet) > 255) return false;
    }
    return true;
  }

  private static URI httpUrl(String name, String value) {
    try {
      URI uri = new URI(value);
      if (uri.getHost() != null && ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) return uri;
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be an http(s) URL, not " + value);
  }

  /** Our client certificate (the one key entry SML_KEY_ALIAS) and, if given, the CAs the SML's server must chain to. */
  private static SSLContext clientTls() throws Exception {
    char[] password = System.getenv("SML_KEYSTORE_PASSWORD").toCharArray();
    KeyStore all = load(System.getenv("SML_KEYSTORE"), password);
    String alias = System.getenv("SML_KEY_ALIAS");
    if (!all.isKeyEntry(alias)) throw new IllegalArgumentException("SML_KEYSTORE has no key entry '" + alias + "'");
    // Only that entry, so the TLS stack cannot present another certificate of the same key store.
    KeyStore client = KeyStore.getInstance("PKCS12");
    client.load(null, null);
    client.setKeyEntry(alias, all.getKey(alias, password), password, all.getCertificateChain(alias));
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(client, password);

    TrustManagerFactory trust = null;
    String trustFile = ApConfig.optional("SML_TRUSTSTORE", null);
    if (trustFile != null) {
      KeyStore store = load(trustFile, ApConfig.optional("SML_TRUSTSTORE_PASSWORD", "").toCharArray());
      trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    // Without SML_TRUSTSTORE, the JVM's default trust: what the real SML's public server certificate needs.
    context.init(keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
    return context;
  }

  private static KeyStore load(String file, char[] password) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      store.load(in, password);
    }
    return store;
  }
}
