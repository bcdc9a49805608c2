package einvoice.accesspoint;

import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/** Small certificate facts used in logs, answers and the AS4 party ids. */
final class Certificates {
  private Certificates() {}

  /** The subject's CN: for a Peppol AP certificate, its seat id (the AS4 party id). */
  static String commonName(X509Certificate cert) {
    try {
      for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) return rdn.getValue().toString();
      }
    } catch (InvalidNameException e) {
      // fall through: no usable CN
    }
    return null;
  }

  static String subject(X509Certificate cert) {
    return cert == null ? null : cert.getSubjectX500Principal().getName();
  }
}
