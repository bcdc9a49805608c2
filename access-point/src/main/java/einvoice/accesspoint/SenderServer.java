package einvoice.accesspoint;

import java.util.LinkedHashMap;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;

/**
 * OUR access point. POST /send hands one SBD to a receiving access point over Peppol AS4;
 * PUT/DELETE /sml/participants/{value} register our SMP's participants in the SML (SmlRoutes), and
 * PUT/DELETE /directory/participants/{value} tell the Peppol Directory about them (DirectoryRoutes).
 * With AP_INBOUND_URL set it also receives: AS4 at /as4 on a port of its own (AP_AS4_PORT), each
 * verified message handed to the service's intake before the receipt goes back.
 */
final class SenderServer {
  private final ApConfig config;
  private final SendEndpoint send;
  private final SmlRoutes sml;
  private final DirectoryRoutes directory;

  private SenderServer(ApConfig config, SmlSettings smlSettings) {
    this.config = config;
    this.send = new SendEndpoint(config, (request, outcome) -> {});
    this.sml = new SmlRoutes(smlSettings == null ? null : new SmlRegistrar(smlSettings));
    this.directory = new DirectoryRoutes(smlSettings);
  }

  static void start(ApConfig config) throws Exception {
    long started = System.nanoTime();
    Phase4Setup.init(config);
    SenderServer server = new SenderServer(config, SmlSettings.fromEnv());
    ApConfig.Inbound inbound = config.inbound();
    if (inbound != null) {
      // Its own port: the control API below stays on loopback, this one faces other access points.
      As4Endpoint as4 = new As4Endpoint(config, inbound.endpointUrl(), new ServiceIntake(inbound));
      Http.start(inbound.bind(), inbound.port(), Map.of("/", Http::notFound, "/as4", as4::handle));
      Log.LOG.info("receiving access point {} listening on http://{}:{}/as4 (published as {}); messages go to {}",
          config.seat(), inbound.bind(), inbound.port(), inbound.endpointUrl(), inbound.intakeUrl());
    }
    Http.start(config.bind(), config.port(), Map.of("/", Http::notFound, "/health", server::health, "/send", server.send::handle,
        SmlRoutes.PREFIX, server.sml::handle, DirectoryRoutes.PREFIX, server.directory::handle));
    Log.LOG.info("sending access point {} listening on http://{}:{} (started in {} ms)", config.seat(), config.bind(),
        config.port(), (System.nanoTime() - started) / 1_000_000);
  }

  private void health(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "GET", "/health")) return;
    Map<String, Object> cert = new LinkedHashMap<>();
    cert.put("subject", Certificates.subject(config.certificate()));
    cert.put("notAfter", config.certificate().getNotAfter().toInstant().toString());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("role", "sender");
    body.put("seat", config.seat());
    body.put("certificate", cert);
    body.put("sml", sml.describe());
    body.put("directory", directory.describe());
    if (config.inbound() != null) {
      Map<String, Object> inbound = new LinkedHashMap<>();
      inbound.put("endpointUrl", config.inbound().endpointUrl());
      inbound.put("maxPayloadBytes", config.maxInboundBytes());
      body.put("inbound", inbound);
    }
    Http.json(exchange, 200, body);
  }
}
