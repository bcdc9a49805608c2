package einvoice.accesspoint;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.MGF1ParameterSpec;
import java.util.Locale;

import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;

/**
 * The least CPU one Peppol AS4 exchange can cost an access point: the JDK alone doing the exchange's
 * cryptography, none of the XML around it (canonicalisation, MIME, ebMS headers). The benchmark prints our
 * access point's CPU per message beside it, so the ratio to the physical limit is on the page.
 *
 * Per message, with the Peppol AS4 profile's algorithms (RSA-SHA256 signatures, RSA-OAEP with SHA-256 key
 * transport, AES-128-GCM payload encryption, SHA-256 digests):
 *   sending    digest the payload, sign, wrap a fresh key for the receiver, encrypt the payload, verify the receipt
 *   receiving  verify the sender's signature, unwrap the key, decrypt and digest the payload, sign the receipt
 * Each way is timed on this thread's CPU clock over `messages` messages, after as many to warm up.
 *
 * Usage: crypto-floor <sender.p12> <receiver.p12> <password> <payload bytes> <messages>; prints one JSON line.
 */
final class CryptoFloor {
  private CryptoFloor() {}

  /** What is signed besides the payload's digest: the SignedInfo of a message or a receipt is about this size. */
  private static final int SIGNED_INFO_BYTES = 1_500;
  private static final String ALIAS = "ap";

  private record Party(PrivateKey key, PublicKey publicKey) {
    static Party of(Path keystore, char[] password) throws Exception {
      KeyStore store = KeyStore.getInstance("PKCS12");
      try (var in = Files.newInputStream(keystore)) {
        store.load(in, password);
      }
      return new Party((PrivateKey) store.getKey(ALIAS, password), store.getCertificate(ALIAS).getPublicKey());
    }
  }

  static void run(String[] args) throws Exception {
    if (args.length != 6) throw new IllegalArgumentException("crypto-floor <sender.p12> <receiver.p12> <password> <payload bytes> <messages>");
    char[] password = args[3].toCharArray();
    Party sender = Party.of(Path.of(args[1]), password);
    Party receiver = Party.of(Path.of(args[2]), password);
    byte[] payload = new byte[Integer.parseInt(args[4])];
    int messages = Integer.parseInt(args[5]);
    SecureRandom random = new SecureRandom();
    random.nextBytes(payload);
    byte[] signedInfo = new byte[SIGNED_INFO_BYTES];
    random.nextBytes(signedInfo);

    ThreadMXBean clock = ManagementFactory.getThreadMXBean();
    long sendNanos = 0;
    long receiveNanos = 0;
    for (int round = 0; round < 2; round++) {
      sendNanos = 0;
      receiveNanos = 0;
      for (int i = 0; i < messages; i++) {
        long t0 = clock.getCurrentThreadCpuTime();
        Sent sent = send(sender, receiver.publicKey(), payload, signedInfo, random);
        long t1 = clock.getCurrentThreadCpuTime();
        byte[] receipt = receive(receiver, sender.publicKey(), sent, signedInfo);
        long t2 = clock.getCurrentThreadCpuTime();
        // The receipt's signature is the sender's last step.
        if (!verify(receiver.publicKey(), signedInfo, receipt)) throw new IllegalStateException("receipt signature");
        long t3 = clock.getCurrentThreadCpuTime();
        sendNanos += (t1 - t0) + (t3 - t2);
        receiveNanos += t2 - t1;
      }
    }
    System.out.println(String.format(Locale.ROOT, "{\"messages\":%d,\"payload_bytes\":%d,\"send_ms\":%.3f,\"receive_ms\":%.3f}",
        messages, payload.length, sendNanos / 1e6 / messages, receiveNanos / 1e6 / messages));
  }

  private record Sent(byte[] signature, byte[] wrappedKey, byte[] iv, byte[] encrypted) {}

  private static Sent send(Party sender, PublicKey receiver, byte[] payload, byte[] signedInfo, SecureRandom random) throws Exception {
    MessageDigest.getInstance("SHA-256").digest(payload);
    byte[] signature = sign(sender.key(), signedInfo);
    KeyGenerator generator = KeyGenerator.getInstance("AES");
    generator.init(128, random);
    SecretKey key = generator.generateKey();
    Cipher wrap = Cipher.getInstance("RSA/ECB/OAEPPadding");
    wrap.init(Cipher.WRAP_MODE, receiver, oaep());
    byte[] wrappedKey = wrap.wrap(key);
    byte[] iv = new byte[12];
    random.nextBytes(iv);
    Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
    gcm.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));
    return new Sent(signature, wrappedKey, iv, gcm.doFinal(payload));
  }

  private static byte[] receive(Party receiver, PublicKey sender, Sent sent, byte[] signedInfo) throws Exception {
    if (!verify(sender, signedInfo, sent.signature())) throw new IllegalStateException("message signature");
    Cipher unwrap = Cipher.getInstance("RSA/ECB/OAEPPadding");
    unwrap.init(Cipher.UNWRAP_MODE, receiver.key(), oaep());
    SecretKey key = (SecretKey) unwrap.unwrap(sent.wrappedKey(), "AES", Cipher.SECRET_KEY);
    Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
    gcm.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, sent.iv()));
    MessageDigest.getInstance("SHA-256").digest(gcm.doFinal(sent.encrypted()));
    return sign(receiver.key(), signedInfo);
  }

  private static OAEPParameterSpec oaep() {
    return new OAEPParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);
  }

  private static byte[] sign(PrivateKey key, byte[] data) throws Exception {
    Signature signer = Signature.getInstance("SHA256withRSA");
    signer.initSign(key);
    signer.update(data);
    return signer.sign();
  }

  private static boolean verify(PublicKey key, byte[] data, byte[] signature) throws Exception {
    Signature verifier = Signature.getInstance("SHA256withRSA");
    verifier.initVerify(key);
    verifier.update(data);
    return verifier.verify(signature);
  }
}
