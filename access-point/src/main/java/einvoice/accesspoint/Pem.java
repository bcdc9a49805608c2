package einvoice.accesspoint;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;

/** PEM certificates in and out: how SMPs and our callers pass access point certificates around. */
final class Pem {
  private Pem() {}

  static String encode(X509Certificate cert) throws CertificateEncodingException {
    String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(cert.getEncoded());
    return "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n";
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
