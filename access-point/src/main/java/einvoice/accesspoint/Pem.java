package einvoice.accesspoint;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;

/** PEM certificates in and out (how SMPs and our callers pass access point certificates around), and test keys out. */
final class Pem {
  private Pem() {}

  static String encode(X509Certificate cert) throws CertificateEncodingException {
    return block("CERTIFICATE", cert.getEncoded());
  }

  /** An unencrypted PKCS#8 private key (what Node's crypto and TLS read), for the local test PKI only. */
  static String encodeKey(PrivateKey key) {
    if (!"PKCS#8".equals(key.getFormat())) throw new IllegalArgumentException("not a PKCS#8 key: " + key.getFormat());
    return block("PRIVATE KEY", key.getEncoded());
  }

  private static String block(String label, byte[] der) {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
  }

  /** Accepts a PEM block (or bare base64, as SMP responses carry it); throws on anything else. */
  static X509Certificate decode(String text) throws CertificateException {
    String body = text.replace("-----BEGIN CERTIFICATE-----", "").replace("-----END CERTIFICATE-----", "")
        .replaceAll("\\s", "");
    byte[] der;
    try {
      der = Base64.getDecoder().decode(body);
    } catch (IllegalArgumentException e) {
      throw new CertificateException("not a PEM certificate: " + e.getMessage());
    }
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
  }
}
