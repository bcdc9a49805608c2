package einvoice.accesspoint;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.helger.security.certificate.TrustedCAChecker;

/**
 * The CAs other access points' certificates must chain to (AP_TRUSTSTORE). Replaces phase4's
 * built-in Peppol production/test CA lists, so the local test network's CA can be used - but
 * every certificate is still checked: signature chain and validity period.
 */
final class Trust {
  private final List<X509Certificate> cas;
  private final Set<TrustAnchor> anchors = new HashSet<>();

  private Trust(List<X509Certificate> cas) {
    this.cas = cas;
    for (X509Certificate ca : cas) anchors.add(new TrustAnchor(ca, null));
  }

  static Trust of(KeyStore trustStore) throws GeneralSecurityException {
    List<X509Certificate> cas = new ArrayList<>();
    for (String alias : Collections.list(trustStore.aliases())) {
      if (trustStore.isCertificateEntry(alias)) cas.add((X509Certificate) trustStore.getCertificate(alias));
    }
    if (cas.isEmpty()) throw new IllegalArgumentException("AP_TRUSTSTORE holds no trusted certificate");
    return new Trust(cas);
  }

  /** Why the certificate must not be used, or null when it chains to a trusted CA and is valid now. */
  String problemWith(X509Certificate cert) {
    if (cert == null) return "no certificate";
    Date now = new Date();
    try {
      cert.checkValidity(now);
    } catch (CertificateExpiredException e) {
      return "certificate " + Certificates.subject(cert) + " expired on " + cert.getNotAfter().toInstant();
    } catch (CertificateNotYetValidException e) {
      return "certificate " + Certificates.subject(cert) + " is not valid before " + cert.getNotBefore().toInstant();
    }
    try {
      PKIXParameters params = new PKIXParameters(anchors);
      // The test CA publishes no CRL/OCSP; revocation is not part of the local network.
      params.setRevocationEnabled(false);
      params.setDate(now);
      var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(cert));
      CertPathValidator.getInstance("PKIX").validate(path, params);
      return null;
    } catch (CertPathValidatorException e) {
      return "certificate " + Certificates.subject(cert) + " does not chain to a trusted CA (" + e.getMessage() + ")";
    } catch (GeneralSecurityException e) {
      return "certificate " + Certificates.subject(cert) + " could not be checked: " + e.getMessage();
    }
  }

  /** The same CAs in the form phase4's Peppol sender wants for its receiver certificate check. */
  TrustedCAChecker phase4Checker() {
    return new TrustedCAChecker(cas.toArray(new X509Certificate[0]));
  }
}
