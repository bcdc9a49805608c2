package einvoice.accesspoint;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

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
 * POST /as4, a Peppol AS4 receiving endpoint: phase4's request handler with the Peppol profile,
 * then our checks (InboundProcessor), then the sink. Both roles receive through this one class;
 * only the sink differs.
 */
final class As4Endpoint {
  /** Room for the SOAP envelope (WS-Security header, certificates) and MIME framing around the payload. */
  private static final long ENVELOPE_ALLOWANCE = 1024 * 1024;

  private final IAS4CryptoFactory crypto;
  private final ICommonsList<IAS4IncomingMessageProcessorSPI> processors;
  private final String endpointUrl;
  private final long maxRequestBytes;

  As4Endpoint(ApConfig config, String endpointUrl, InboundSink sink) {
    this.crypto = Phase4Setup.cryptoFactory(config);
    // Handed to the request handler directly instead of through ServiceLoader: the processor needs our state.
    this.processors = new CommonsArrayList<>(new InboundProcessor(config.trust(), config.seat(), config.maxInboundBytes(), sink));
    this.endpointUrl = endpointUrl;
    // phase4 holds each MIME part in memory while it parses, so the request itself is bounded too: by what a
    // payload at the limit can take on the wire (compression gains nothing on random data, a base64
    // transfer encoding adds a third) plus the envelope. A larger payload that compresses well gets
    // through to InboundProcessor, which refuses it with an AS4 error.
    this.maxRequestBytes = config.maxInboundBytes() / 3L * 4L + 4 + ENVELOPE_ALLOWANCE;
  }

  String endpointUrl() {
    return endpointUrl;
  }

  void handle(HttpExchange exchange) throws Exception {
    if (!Http.route(exchange, "POST", "/as4")) return;
    InetSocketAddress remote = exchange.getRemoteAddress();
    String declaredLength = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declaredLength != null && declaredLength.matches("\\d{1,18}") && Long.parseLong(declaredLength) > maxRequestBytes) {
      tooLarge(exchange, remote);
      return;
    }
    HttpHeaderMap headers = new HttpHeaderMap();
    exchange.getRequestHeaders().forEach((name, values) -> values.forEach(v -> headers.addHeader(name, v)));
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
      handler.handleRequest(new Bounded(exchange.getRequestBody(), maxRequestBytes), headers, response);
    } catch (Phase4Exception e) {
      // Not AS4 at all (e.g. no SOAP envelope): there is nothing to answer with an AS4 error.
      Log.LOG.info("refused a non-AS4 request from {}: {}", remote, e.getMessage());
      Http.send(exchange, 400, "text/plain; charset=utf-8", ("Bad Request: " + e.getMessage()).getBytes(StandardCharsets.UTF_8));
      return;
    } catch (Exception e) {
      // Cut off while phase4 read it: the message was never parsed, so there is no message id to answer.
      if (!causedBy(e, TooLarge.class)) throw e;
      tooLarge(exchange, remote);
      return;
    }
    response.writeTo(exchange);
  }

  private void tooLarge(HttpExchange exchange, InetSocketAddress remote) throws IOException {
    Log.LOG.info("refused a request from {}: larger than {} bytes", remote, maxRequestBytes);
    String text = "Payload Too Large: this access point accepts AS4 requests of at most " + maxRequestBytes + " bytes";
    // The rest of the body is not read: the connection closes after this answer.
    exchange.getResponseHeaders().set("Connection", "close");
    Http.send(exchange, 413, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) return true;
    }
    return false;
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

  private static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("request body larger than " + limit + " bytes");
    }
  }

  /** The request body, cut off with TooLarge once it goes past the limit (a chunked body declares no length). */
  private static final class Bounded extends FilterInputStream {
    private final long limit;
    private long read;

    Bounded(InputStream in, long limit) {
      super(in);
      this.limit = limit;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) count(1);
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) count(n);
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count(skipped);
      return skipped;
    }

    private void count(long n) throws TooLarge {
      read += n;
      if (read > limit) throw new TooLarge(limit);
    }
  }
}
