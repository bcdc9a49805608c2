package einvoice.accesspoint;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A local TEST PKI standing in for the Peppol CA: one CA, a sending and a receiving access point
 * certificate, the SMP's certificate (also in PEM with its PKCS#8 key, for the Node SMP that signs
 * with it), and a trust store. Never valid in the real Peppol network.
 */
final class TestPki {
  static final String PASSWORD = "local-test-only";
  static final String KEY_ALIAS = "ap";
  static final List<String> FILES =
      List.of("ca.pem", "sender-ap.p12", "receiver-ap.p12", "receiver-ap.pem", "smp.p12", "smp.pem", "smp-key.pem",
          "truststore.p12");

  // Built attribute by attribute: the CA's O contains a comma, which a DN string would split.
  private static final X500Name CA_SUBJECT = name("einvoice local Peppol test CA", "einvoice (local test PKI, not Peppol)");
  private static final X500Name SENDER_SUBJECT = name("PBE000001", "einvoice sending access point (local test)");
  private static final X500Name RECEIVER_SUBJECT =
      name("PBE000002", "einvoice receiving access point stand-in (local test)");
  private static final X500Name SMP_SUBJECT = name("SMP local test", "einvoice SMP (local test)");

  private final SecureRandom random = new SecureRandom();
  // Back-dated a day so a peer whose clock runs slightly behind still accepts fresh certificates.
  private final Instant notBefore = Instant.now().minus(Duration.ofDays(1));
  // "10 years from now minus 1 day"
  private final Instant notAfter = Instant.now().atOffset(ZoneOffset.UTC).plusYears(10).minusDays(1).toInstant();

  private TestPki() {}

  /** Creates the PKI unless every file is already there; all files appear together or not at all. */
  static void ensure(Path dir) throws Exception {
    if (FILES.stream().allMatch(f -> Files.isRegularFile(dir.resolve(f)))) {
      System.err.println("test PKI in " + dir + " is complete; nothing to do");
      return;
    }
    Path absolute = dir.toAbsolutePath();
    Files.createDirectories(absolute.getParent());
    Path scratch = Files.createTempDirectory(absolute.getParent(), absolute.getFileName() + ".partial-");
    try {
      new TestPki().writeAll(scratch);
      Files.createDirectories(absolute);
      // Files move in one by one, so move them in the order a reader checks them, CA first.
      for (String file : FILES) {
        Files.move(scratch.resolve(file), absolute.resolve(file), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
    } finally {
      deleteTree(scratch);
    }
    System.err.println("created local TEST PKI (not Peppol) in " + absolute);
  }

  private void writeAll(Path dir) throws Exception {
    KeyPair caKeys = newKeyPair();
    X509Certificate ca = caCertificate(caKeys);
    Files.writeString(dir.resolve("ca.pem"), Pem.encode(ca));

    writeKeyStore(dir.resolve("sender-ap.p12"), newKeyPair(), caKeys, ca, SENDER_SUBJECT);
    X509Certificate receiver = writeKeyStore(dir.resolve("receiver-ap.p12"), newKeyPair(), caKeys, ca, RECEIVER_SUBJECT);
    Files.writeString(dir.resolve("receiver-ap.pem"), Pem.encode(receiver));

    KeyPair smpKeys = newKeyPair();
    X509Certificate smp = writeKeyStore(dir.resolve("smp.p12"), smpKeys, caKeys, ca, SMP_SUBJECT);
    Files.writeString(dir.resolve("smp.pem"), Pem.encode(smp));
    // RSA keys of the JCA encode as PKCS#8, the form Node's crypto reads.
    String key = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(smpKeys.getPrivate().getEncoded());
    Files.writeString(dir.resolve("smp-key.pem"), "-----BEGIN PRIVATE KEY-----\n" + key + "\n-----END PRIVATE KEY-----\n");

    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca);
    store(trust, dir.resolve("truststore.p12"));
  }

  private static X500Name name(String commonName, String organisation) {
    // Most significant first (C, O, CN), so the usual string form reads "CN=..., O=..., C=BE".
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.C, "BE").addRDN(BCStyle.O, organisation)
        .addRDN(BCStyle.CN, commonName).build();
  }

  private X509Certificate writeKeyStore(Path file, KeyPair keys, KeyPair caKeys, X509Certificate ca, X500Name subject)
      throws Exception {
    X509Certificate leaf = leafCertificate(keys, caKeys, ca, subject);
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setKeyEntry(KEY_ALIAS, keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
    store(store, file);
    return leaf;
  }

  private X509Certificate caCertificate(KeyPair caKeys) throws Exception {
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    X509v3CertificateBuilder builder = builder(CA_SUBJECT, CA_SUBJECT, caKeys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
    return sign(builder, caKeys);
  }

  private X509Certificate leafCertificate(KeyPair keys, KeyPair caKeys, X509Certificate ca, X500Name subject)
      throws Exception {
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    X509v3CertificateBuilder builder = builder(CA_SUBJECT, subject, keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true,
            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()))
        .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
    return sign(builder, caKeys);
  }

  private X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair subjectKeys) {
    BigInteger serial = new BigInteger(64, random).add(BigInteger.ONE);
    return new JcaX509v3CertificateBuilder(issuer, serial, Date.from(notBefore), Date.from(notAfter), subject,
        subjectKeys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys) throws Exception {
    var signer = new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate());
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048, random);
    return generator.generateKeyPair();
  }

  private static void store(KeyStore store, Path file) throws Exception {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD.toCharArray());
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
