package einvoice.accesspoint;

import java.nio.file.Path;

import org.slf4j.bridge.SLF4JBridgeHandler;

/** Entry point: one jar, its roles chosen by the first argument (and smp-read, peppol-commons' SMP client for the tests; crypto-floor for bench:as4). */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    // Some libraries (the JDK's XML signature code) log through java.util.logging: send it to SLF4J too,
    // so one configuration (simplelogger.properties) governs all output.
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    String role = args.length > 0 ? args[0] : "";
    switch (role) {
      case "pki" -> {
        if (args.length != 2) usage();
        TestPki.ensure(Path.of(args[1]));
      }
      case "sender" -> SenderServer.start(ApConfig.fromEnv(false));
      case "receiver" -> ReceiverServer.start(ApConfig.fromEnv(true));
      case "smp-read" -> SmpRead.run(args);
      case "crypto-floor" -> CryptoFloor.run(args);
      default -> usage();
    }
  }

  private static void usage() {
    System.err.println("usage: java -jar peppol-access-point.jar (pki <dir> | sender | receiver | smp-read ... | crypto-floor ...)");
    System.exit(2);
  }
}
