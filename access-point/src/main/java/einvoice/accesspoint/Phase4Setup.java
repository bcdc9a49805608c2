package einvoice.accesspoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Security;

import com.helger.base.state.EContinue;
import com.helger.phase4.crypto.AS4CryptoFactoryInMemoryKeyStore;
import com.helger.phase4.duplicate.AS4DuplicateManagerInMemory;
import com.helger.phase4.duplicate.IAS4DuplicateManager;
import com.helger.phase4.mgr.AS4ManagerFactoryInMemory;
import com.helger.phase4.mgr.MetaAS4Manager;
import com.helger.phase4.util.AS4ResourceHelper;
import com.helger.scope.mgr.ScopeManager;
import com.helger.security.revocation.CertificateRevocationCheckerDefaults;
import com.helger.security.revocation.ERevocationCheckMode;

/** phase4's process-wide state: configuration, in-memory managers and the global scope. */
final class Phase4Setup {
  private Phase4Setup() {}

  static void init(ApConfig config) throws IOException {
    Path dataDir = config.dataDir();
    // phase4 reads these through its configuration (system properties win over application.properties);
    // they must be set before the first phase4 class reads its configuration.
    System.setProperty("global.datapath", dataDir.toString());
    System.setProperty("phase4.manager.inmemory", "true");
    System.setProperty("phase4.dump.path", dataDir.resolve("dumps").toString());
    System.setProperty("phase4.errormsg.include.stacktraces", "false");

    // phase4 rejects a repeated AS4 message id with an error; we want a retried message (lost
    // receipt) to get a normal receipt, and dedupe ourselves by the stored inbox file.
    MetaAS4Manager.setFactory(new AS4ManagerFactoryInMemory() {
      @Override
      public IAS4DuplicateManager createDuplicateManager() {
        return new AS4DuplicateManagerInMemory() {
          @Override
          public EContinue registerAndCheck(String messageId, String profileId, String pmodeId) {
            return EContinue.CONTINUE;
          }
        };
      }
    });

    // Payload and MIME temp files stay inside the data directory.
    AS4ResourceHelper.setTempDir(Files.createDirectories(dataDir.resolve("tmp")).toFile());
    if (config.revocationCheck()) {
      // The JDK's PKIX validator (Trust) asks the OCSP responder and fetches the CRL the certificate names.
      Security.setProperty("ocsp.enable", "true");
      System.setProperty("com.sun.security.enableCRLDP", "true");
      CertificateRevocationCheckerDefaults.setRevocationCheckMode(ERevocationCheckMode.OCSP_BEFORE_CRL);
    } else {
      // A test PKI (the local network's) publishes no CRL or OCSP responder; chain and validity are still checked.
      CertificateRevocationCheckerDefaults.setRevocationCheckMode(ERevocationCheckMode.NONE);
    }

    ScopeManager.onGlobalBegin("peppol-access-point");
    Runtime.getRuntime().addShutdownHook(new Thread(ScopeManager::onGlobalEnd));
    // Instantiate the managers (and the Peppol AS4 profile) now, not inside the first request.
    MetaAS4Manager.getInstance();
  }

  /** Our key signs and decrypts; the trust store verifies the peer's signature chain. */
  static AS4CryptoFactoryInMemoryKeyStore cryptoFactory(ApConfig config) {
    return new AS4CryptoFactoryInMemoryKeyStore(config.keyStore(), config.keyAlias(), config.keyPassword(),
        config.trustStore());
  }
}
