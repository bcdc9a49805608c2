package einvoice.accesspoint;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.engine.WSSConfig;

import com.helger.collection.commons.CommonsArrayList;
import com.helger.collection.commons.ICommonsList;
import com.helger.http.header.HttpHeaderMap;
import com.helger.phase4.attachment.IAS4IncomingAttachmentFactory;
import com.helger.phase4.crypto.IAS4CryptoFactory;
import com.helger.phase4.crypto.IAS4DecryptParameterModifier;
import com.helger.phase4.incoming.AS4IncomingMessageMetadata;
import com.helger.phase4.incoming.AS4IncomingProfileSelectorConstant;
import com.helger.phase4.incoming.AS4IncomingReceiverConfiguration;
import com.helger.phase4.incoming.AS4RequestHandler;
import com.helger.phase4.incoming.crypto.AS4IncomingSecurityConfiguration;
import com.helger.phase4.incoming.spi.IAS4IncomingMessageProcessorSPI;
import com.helger.phase4.profile.peppol.AS4PeppolProfileRegistarSPI;
import com.helger.phase4.util.Phase4Exception;
import com.sun.net.httpserver.HttpExchange;

/**
 * The LOCAL RECEIVING ACCESS POINT STAND-IN of the local test Peppol network: a real Peppol AS4
 * endpoint (phase4's request handler) that keeps what it receives in an inbox for people and tests.
 */
final class ReceiverServer {
  static final String ROLE = "receiver (local Peppol network stand-in)";

  private final ApConfig config;
  private final Inbox inbox;
  private final IAS4CryptoFactory crypto;
  private final ICommonsList<IAS4IncomingMessageProcessorSPI> processors;
  private final String endpointUrl;

  private ReceiverServer(ApConfig config, Set<String> rejected) {
    this.config = config;
    this.inbox = new Inbox(config.inboxDir());
    this.crypto = Phase4Setup.cryptoFactory(config);
    // Handed to the request handler directly instead of through ServiceLoader: the processor needs our state.
    this.processors = new CommonsArrayList<>(new InboxProcessor(config.trust(), inbox, rejected));
    this.endpointUrl = ApConfig.optional("AP_ENDPOINT_URL", "http://" + config.bind() + ":" + config.port() + "/as4");
  }

  static void start(ApConfig config) throws Exception {
    long started = System.nanoTime();
    Set<String> rejected = Arrays.stream(ApConfig.optional("AP_REJECT_RECEIVERS", "").split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).map(InboxProcessor::normalise).collect(Collectors.toSet());
    Phase4Setup.init(config);
    ReceiverServer server = new ReceiverServer(config, rejected);
    Http.start(config, Map.of("/", Http::notFound, "/health", server::health, "/inbox", server::inbox, "/as4", server::as4));
    Log.LOG.info("LOCAL Peppol network stand-in: receiving access point {} listening on {} (inbox {}{}; started in {} ms)",
        config.seat(), server.endpointUrl, config.inboxDir(), rejected.isEmpty() ? "" : ", rejecting receivers " + rejected,
        (System.nanoTime() - started) / 1_000_000);
  }

  private void health(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "GET", "/health")) return;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", "ok");
    body.put("role", ROLE);
    body.put("seat", config.seat());
    Http.json(exchange, 200, body);
  }

  private void inbox(HttpExchange exchange) throws Exception {
    String path = exchange.getRequestURI().getPath();
    if (!exchange.getRequestMethod().equalsIgnoreCase("GET")) {
      Http.json(exchange, 405, Map.of("error", "method not allowed"));
    } else if (path.equals("/inbox") || path.equals("/inbox/")) {
      Http.json(exchange, 200, inbox.list());
    } else {
      byte[] sbd = inbox.read(path.substring("/inbox/".length()));
      if (sbd == null) Http.json(exchange, 404, Map.of("error", "not found"));
      else Http.send(exchange, 200, "application/xml", sbd);
    }
  }

  private void as4(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "POST", "/as4")) return;
    HttpHeaderMap headers = new HttpHeaderMap();
    exchange.getRequestHeaders().forEach((name, values) -> values.forEach(v -> headers.addHeader(name, v)));
    InetSocketAddress remote = exchange.getRemoteAddress();
    var metadata = AS4IncomingMessageMetadata.createForRequest()
        .setRemoteAddr(remote.getAddress().getHostAddress())
        .setRemotePort(remote.getPort())
        .setHttpHeaders(headers);
    As4HttpResponse response = new As4HttpResponse();
    try (AS4RequestHandler handler = new AS4RequestHandler(metadata)) {
      handler.setCryptoFactory(crypto)
          .setPModeResolver(new PeppolPModeResolver())
          .setIncomingProfileSelector(new AS4IncomingProfileSelectorConstant(AS4PeppolProfileRegistarSPI.AS4_PROFILE_ID, true))
          .setIncomingAttachmentFactory(IAS4IncomingAttachmentFactory.DEFAULT_INSTANCE)
          .setIncomingSecurityConfiguration(securityConfiguration())
          .setIncomingReceiverConfiguration(new AS4IncomingReceiverConfiguration().setReceiverEndpointAddress(endpointUrl))
          .setProcessorSupplier(() -> processors);
      handler.handleRequest(exchange.getRequestBody(), headers, response);
    } catch (Phase4Exception e) {
      // Not AS4 at all (e.g. no SOAP envelope): there is nothing to answer with an AS4 error.
      Log.LOG.info("refused a non-AS4 request from {}: {}", remote, e.getMessage());
      Http.send(exchange, 400, "text/plain; charset=utf-8", ("Bad Request: " + e.getMessage()).getBytes());
      return;
    }
    response.writeTo(exchange);
  }

  /** WSS4J checks signatures; the trust decision on the sender's certificate is ours (see SignerCertificateValidator). */
  private static AS4IncomingSecurityConfiguration securityConfiguration() {
    return AS4IncomingSecurityConfiguration.createDefaultInstance().setDecryptParameterModifier(new IAS4DecryptParameterModifier() {
      @Override
      public void modifyWSSConfig(WSSConfig wssConfig) {
        wssConfig.setValidator(WSConstants.SIGNATURE, new SignerCertificateValidator());
      }
    });
  }
}
