package einvoice.accesspoint;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
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
 * every certificate is still checked: signature chain, validity period and (AP_REVOCATION_CHECK)
 * revocation.
 */
final class Trust {
  private final List<X509Certificate> cas;
  private final Set<TrustAnchor> anchors = new HashSet<>();
  private final boolean revocationCheck;

  private Trust(List<X509Certificate> cas, boolean revocationCheck) {
    this.cas = cas;
    this.revocationCheck = revocationCheck;
    for (X509Certificate ca : cas) anchors.add(new TrustAnchor(ca, null));
  }

  static Trust of(KeyStore trustStore, boolean revocationCheck) throws GeneralSecurityException {
    List<X509Certificate> cas = new ArrayList<>();
    for (String alias : Collections.list(trustStore.aliases())) {
      if (trustStore.isCertificateEntry(alias)) cas.add((X509Certificate) trustStore.getCertificate(alias));
    }
    if (cas.isEmpty()) throw new IllegalArgumentException("AP_TRUSTSTORE holds no trusted certificate");
    return new Trust(cas, revocationCheck);
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
    String subject = "certificate " + Certificates.subject(cert);
    try {
      validate(cert, now, false);
    } catch (CertPathValidatorException e) {
      return subject + " does not chain to a trusted CA (" + e.getMessage() + ")";
    } catch (GeneralSecurityException e) {
      return subject + " could not be checked: " + e.getMessage();
    }
    if (!revocationCheck) return null;
    try {
      // By OCSP, or the CRL the certificate names (see Phase4Setup); off only for a test PKI without either.
      validate(cert, now, true);
      return null;
    } catch (CertPathValidatorException e) {
      if (e.getReason() == BasicReason.REVOKED) return subject + " is revoked";
      return subject + ": its revocation status could not be confirmed (" + e.getMessage() + ")";
    } catch (GeneralSecurityException e) {
      return subject + " could not be checked: " + e.getMessage();
    }
  }

  /** PKIX validation of the one certificate against the trusted CAs, with or without revocation. */
  private void validate(X509Certificate cert, Date now, boolean revocation) throws GeneralSecurityException {
    PKIXParameters params = new PKIXParameters(anchors);
    params.setRevocationEnabled(revocation);
    params.setDate(now);
    var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(cert));
    CertPathValidator.getInstance("PKIX").validate(path, params);
  }

  /** The same CAs in the form phase4's Peppol sender wants for its receiver certificate check. */
  TrustedCAChecker phase4Checker() {
    return new TrustedCAChecker(cas.toArray(new X509Certificate[0]));
  }
}
