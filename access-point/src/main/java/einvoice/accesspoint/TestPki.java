package einvoice.accesspoint;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
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
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A local TEST PKI standing in for the Peppol CAs: one CA, a sending and a receiving access point
 * certificate, the certificate of the independent access point on the stand-in network (Oxalis, seat
 * POX000003; a JKS key store, as Oxalis reads it), the SMP certificate (signs SMP metadata, and is the
 * client certificate our SML client presents), the stand-in SML's TLS server certificate, and trust
 * stores (PKCS#12, and JKS for Oxalis). Peppol has separate AP and SMP CAs; here one CA issues
 * everything. Beside them, an access point certificate from another CA (`outside-ap.jks`): what an
 * access point outside the AP CA signs with, which every access point must refuse. Never valid in the
 * real Peppol network.
 */
final class TestPki {
  static final String PASSWORD = "local-test-only";
  static final String KEY_ALIAS = "ap";
  static final List<String> FILES = List.of("ca.pem", "sender-ap.p12", "sender-ap.pem", "receiver-ap.p12",
      "receiver-ap.pem", "oxalis-ap.jks", "oxalis-ap.pem", "outside-ap.jks", "outside-ca.pem", "smp.p12", "smp.pem", "smp-key.pem",
      "sml-server.pem", "sml-server-key.pem", "truststore.p12", "truststore.jks");

  // Built attribute by attribute: the CA's O contains a comma, which a DN string would split.
  private static final X500Name CA_SUBJECT = name("einvoice local Peppol test CA", "einvoice (local test PKI, not Peppol)");
  private static final X500Name SENDER_SUBJECT = name("PBE000001", "einvoice sending access point (local test)");
  private static final X500Name RECEIVER_SUBJECT =
      name("PBE000002", "einvoice receiving access point stand-in (local test)");
  private static final X500Name OXALIS_SUBJECT = name("POX000003", "independent access point on the stand-in network (Oxalis, local test)");
  private static final X500Name OUTSIDE_CA_SUBJECT = name("a CA that is not the AP CA", "outside the local Peppol test PKI");
  private static final X500Name OUTSIDE_SUBJECT = name("POX000009", "access point outside the AP CA (local test)");
  private static final X500Name SMP_SUBJECT = name("SMP local test", "einvoice SMP (local test)");
  private static final X500Name SML_SERVER_SUBJECT = name("localhost", "einvoice SML stand-in (local test)");

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

    // Each access point's certificate alone too: the SMPs publish them.
    Leaf sender = writeKeyStore(dir.resolve("sender-ap.p12"), caKeys, ca, SENDER_SUBJECT);
    Files.writeString(dir.resolve("sender-ap.pem"), Pem.encode(sender.certificate()));
    Leaf receiver = writeKeyStore(dir.resolve("receiver-ap.p12"), caKeys, ca, RECEIVER_SUBJECT);
    Files.writeString(dir.resolve("receiver-ap.pem"), Pem.encode(receiver.certificate()));
    Leaf oxalis = writeKeyStore(dir.resolve("oxalis-ap.jks"), "JKS", caKeys, ca, CA_SUBJECT, OXALIS_SUBJECT);
    Files.writeString(dir.resolve("oxalis-ap.pem"), Pem.encode(oxalis.certificate()));
    // A CA of its own, never in any trust store here.
    KeyPair outsideKeys = newKeyPair();
    X509Certificate outside = caCertificate(outsideKeys, OUTSIDE_CA_SUBJECT);
    Files.writeString(dir.resolve("outside-ca.pem"), Pem.encode(outside));
    writeKeyStore(dir.resolve("outside-ap.jks"), "JKS", outsideKeys, outside, OUTSIDE_CA_SUBJECT, OUTSIDE_SUBJECT);

    // The SMP's key also as PEM: Node signs SMP metadata with it and presents it to the SML in tests.
    Leaf smp = writeKeyStore(dir.resolve("smp.p12"), caKeys, ca, SMP_SUBJECT);
    Files.writeString(dir.resolve("smp.pem"), Pem.encode(smp.certificate()));
    Files.writeString(dir.resolve("smp-key.pem"), Pem.encodeKey(smp.keys().getPrivate()));

    KeyPair smlKeys = newKeyPair();
    X509Certificate sml = tlsServerCertificate(smlKeys, caKeys, ca);
    Files.writeString(dir.resolve("sml-server.pem"), Pem.encode(sml));
    Files.writeString(dir.resolve("sml-server-key.pem"), Pem.encodeKey(smlKeys.getPrivate()));

    for (String type : new String[] {"PKCS12", "JKS"}) {
      KeyStore trust = KeyStore.getInstance(type);
      trust.load(null, null);
      trust.setCertificateEntry("ca", ca);
      store(trust, dir.resolve(type.equals("JKS") ? "truststore.jks" : "truststore.p12"));
    }
  }

  private static X500Name name(String commonName, String organisation) {
    // Most significant first (C, O, CN), so the usual string form reads "CN=..., O=..., C=BE".
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.C, "BE").addRDN(BCStyle.O, organisation)
        .addRDN(BCStyle.CN, commonName).build();
  }

  private record Leaf(KeyPair keys, X509Certificate certificate) {}

  private Leaf writeKeyStore(Path file, KeyPair caKeys, X509Certificate ca, X500Name subject) throws Exception {
    return writeKeyStore(file, "PKCS12", caKeys, ca, CA_SUBJECT, subject);
  }

  private Leaf writeKeyStore(Path file, String type, KeyPair caKeys, X509Certificate ca, X500Name issuer, X500Name subject)
      throws Exception {
    KeyPair keys = newKeyPair();
    X509Certificate leaf = sign(leafBuilder(keys, caKeys, ca, issuer, subject), caKeys);
    KeyStore store = KeyStore.getInstance(type);
    store.load(null, null);
    store.setKeyEntry(KEY_ALIAS, keys.getPrivate(), PASSWORD.toCharArray(), new Certificate[] {leaf, ca});
    store(store, file);
    return new Leaf(keys, leaf);
  }

  private X509Certificate caCertificate(KeyPair caKeys) throws Exception {
    return caCertificate(caKeys, CA_SUBJECT);
  }

  private X509Certificate caCertificate(KeyPair caKeys, X500Name subject) throws Exception {
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    X509v3CertificateBuilder builder = builder(subject, subject, caKeys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
    return sign(builder, caKeys);
  }

  private X509v3CertificateBuilder leafBuilder(KeyPair keys, KeyPair caKeys, X509Certificate ca, X500Name subject)
      throws Exception {
    return leafBuilder(keys, caKeys, ca, CA_SUBJECT, subject);
  }

  private X509v3CertificateBuilder leafBuilder(KeyPair keys, KeyPair caKeys, X509Certificate ca, X500Name issuer,
      X500Name subject) throws Exception {
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    return builder(issuer, subject, keys)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true,
            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()))
        .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
  }

  /** TLS clients check the host they dialled against the subject alternative names, not the CN. */
  private X509Certificate tlsServerCertificate(KeyPair keys, KeyPair caKeys, X509Certificate ca) throws Exception {
    GeneralNames names = new GeneralNames(new GeneralName[] {
        new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")});
    X509v3CertificateBuilder builder = leafBuilder(keys, caKeys, ca, SML_SERVER_SUBJECT)
        .addExtension(Extension.subjectAlternativeName, false, names)
        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
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
