package einvoice.accesspoint;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.util.Timeout;

import com.helger.datetime.xml.XMLOffsetDateTime;
import com.helger.httpclient.HttpClientFactory;
import com.helger.phase4.crypto.IAS4CryptoFactory;
import com.helger.phase4.ebms3header.Ebms3Error;
import com.helger.phase4.ebms3header.Ebms3SignalMessage;
import com.helger.phase4.incoming.IAS4IncomingMessageState;
import com.helger.phase4.messaging.http.HttpRetrySettings;
import com.helger.phase4.peppol.Phase4PeppolSender;
import com.helger.phase4.profile.peppol.Phase4PeppolHttpClientSettings;
import com.helger.phase4.util.Phase4Exception;
import com.helger.security.certificate.TrustedCAChecker;

/** Sends one pre-built SBD over Peppol AS4 with phase4 and turns what happened into an Outcome. */
final class As4Sender {
  /**
   * ebMS errors that describe a passing condition, not a refusal of this message: EBMS:0202 DeliveryFailure is what
   * a receiving access point (ours too) answers when it could not keep the message, which a later attempt may do.
   */
  private static final Set<String> TRANSIENT_EBMS_ERRORS = Set.of("EBMS:0005", "EBMS:0202", "EBMS:0301", "EBMS:0302");

  private final ApConfig config;
  private final IAS4CryptoFactory crypto;
  private final TrustedCAChecker caChecker;
  /** One HTTP client for every send (phase4 would build one per message): its connections are kept alive. */
  private final PooledHttpPoster poster;

  As4Sender(ApConfig config) {
    this.config = config;
    this.crypto = Phase4Setup.cryptoFactory(config);
    this.caChecker = config.trust().phase4Checker();
    this.poster = new PooledHttpPoster(new HttpClientFactory(httpSettings()));
  }

  Outcome send(SendRequest request) {
    // Checked here too (phase4's CA checker compares issuers only) so an untrusted certificate is refused
    // with a clear reason before anything is encrypted for it.
    String certProblem = config.trust().problemWith(request.receiverCertificate());
    if (certProblem != null) return Outcome.rejected("receiver access point certificate refused: " + certProblem);

    AtomicReference<Ebms3SignalMessage> signal = new AtomicReference<>();
    AtomicReference<IAS4IncomingMessageState> signalState = new AtomicReference<>();
    AtomicInteger httpStatus = new AtomicInteger(-1);
    try {
      var result = Phase4PeppolSender.sbdhBuilder()
          // The caller's SBD goes on the wire byte for byte; phase4 only compresses, signs and encrypts it.
          .payload(request.sbd())
          .senderParticipantID(request.sender())
          .receiverParticipantID(request.receiver())
          .documentTypeID(request.documentType())
          .processID(request.process())
          .countryC1(request.countryC1())
          .senderPartyID(config.seat())
          // The caller did the SML/SMP lookup: fixed endpoint, no discovery here.
          .receiverEndpointDetails(request.receiverCertificate(), request.endpointUrl())
          .checkReceiverAPCertificate(true)
          .peppolAP_CAChecker(caChecker)
          .cryptoFactory(crypto)
          // Stable per document: a retry after a lost receipt is the same AS4 message to the receiver.
          .messageID(request.messageId())
          .customHttpPoster(poster)
          // Retrying is the caller's decision (it owns the schedule); one attempt per call here.
          .httpRetrySettings(new HttpRetrySettings().setMaxRetries(0))
          .rawResponseConsumer(sent -> {
            if (sent.hasResponseStatusLine()) httpStatus.set(sent.getResponseStatusLine().getStatusCode());
          })
          .signalMsgConsumer((message, metadata, state) -> {
            signal.set(message);
            signalState.set(state);
          })
          .sendMessage();
      if (result.isFailure()) {
        return Outcome.rejected("phase4 refused the message parameters (e.g. receiver certificate CN is not a Peppol seat id); see the access point log");
      }
    } catch (Phase4Exception e) {
      return fromException(e, httpStatus.get());
    }
    return fromSignal(request, signal.get(), signalState.get(), httpStatus.get());
  }

  private Phase4PeppolHttpClientSettings httpSettings() {
    Phase4PeppolHttpClientSettings settings = new Phase4PeppolHttpClientSettings();
    // Connecting gets its own short limit, the answer AP_SEND_TIMEOUT_MS: together at most 40 s, so /send always
    // answers before the worker's client gives up (45 s) and well inside one delivery attempt (60 s).
    Timeout connect = Timeout.ofMilliseconds(Math.min(ApConfig.CONNECT_TIMEOUT_MS, config.sendTimeoutMs()));
    settings.setConnectTimeout(connect);
    settings.setConnectionRequestTimeout(connect);
    settings.setResponseTimeout(Timeout.ofMilliseconds(config.sendTimeoutMs()));
    settings.setRetryCount(0);
    return settings;
  }

  private Outcome fromSignal(SendRequest request, Ebms3SignalMessage signal, IAS4IncomingMessageState state,
      int httpStatus) {
    if (signal == null) {
      return httpStatus >= 400 && httpStatus < 500
          ? Outcome.rejected("receiver answered HTTP " + httpStatus + " without an AS4 signal")
          : Outcome.failed("receiver answered " + (httpStatus < 0 ? "nothing" : "HTTP " + httpStatus)
              + " without an AS4 signal message");
    }
    if (!signal.getError().isEmpty()) return fromErrors(signal.getError());
    if (signal.getReceipt() == null) return Outcome.failed("AS4 signal message holds neither a receipt nor an error");
    // A receipt only counts as proof of delivery when it is signed by a certificate we trust.
    if (state == null || !state.isSoapSignatureChecked() || state.getSigningCertificate() == null) {
      return Outcome.failed("AS4 receipt is not signed");
    }
    String signerProblem = config.trust().problemWith(state.getSigningCertificate());
    if (signerProblem != null) return Outcome.failed("AS4 receipt signature not trusted: " + signerProblem);
    String refTo = signal.getMessageInfo().getRefToMessageId();
    if (!request.messageId().equals(refTo)) {
      return Outcome.failed("AS4 receipt refers to message '" + refTo + "', not '" + request.messageId() + "'");
    }
    XMLOffsetDateTime ts = signal.getMessageInfo().getTimestamp();
    String timestamp = ts == null ? null
        : (ts.getOffset() != null ? ts.toOffsetDateTime() : ts.toLocalDateTime().atOffset(ZoneOffset.UTC)).toString();
    return Outcome.delivered(request.messageId(), signal.getMessageInfo().getMessageId(), timestamp,
        Certificates.commonName(state.getSigningCertificate()));
  }

  private static Outcome fromErrors(List<Ebms3Error> errors) {
    List<String> parts = new ArrayList<>();
    boolean allTransient = true;
    for (Ebms3Error error : errors) {
      StringBuilder part = new StringBuilder(String.valueOf(error.getErrorCode()));
      if (error.getShortDescription() != null) part.append(' ').append(error.getShortDescription());
      if (error.getDescriptionValue() != null) part.append(": ").append(error.getDescriptionValue());
      if (error.getErrorDetail() != null) part.append(" [").append(error.getErrorDetail()).append(']');
      parts.add(part.toString());
      allTransient &= TRANSIENT_EBMS_ERRORS.contains(error.getErrorCode());
    }
    String text = "receiver answered with AS4 error: " + String.join("; ", parts);
    return allTransient ? Outcome.failed(text) : Outcome.rejected(text);
  }

  /** Network trouble and server-side failures are transient; anything the receiver refused is not. */
  private static Outcome fromException(Phase4Exception e, int httpStatus) {
    String reason = describe(e);
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnknownHostException) return Outcome.failed("DNS lookup failed: " + reason);
      if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
        return Outcome.failed("connection failed: " + reason);
      }
      if (t instanceof InterruptedIOException) return Outcome.failed("timed out: " + reason);
      if (t instanceof NoHttpResponseException || t instanceof SocketException) {
        return Outcome.failed("connection lost: " + reason);
      }
    }
    if (httpStatus >= 500) return Outcome.failed("receiver answered HTTP " + httpStatus + " without a usable AS4 answer: " + reason);
    if (httpStatus >= 400) return Outcome.rejected("receiver answered HTTP " + httpStatus + ": " + reason);
    if (!e.isRetryFeasible() && httpStatus < 0) return Outcome.rejected(reason);
    if (rootCause(e) instanceof IOException) return Outcome.failed("transport error: " + reason);
    // A 2xx answer we could not use: the receiver may hold the message, and a retry with the same id is safe.
    return httpStatus >= 0 ? Outcome.failed("unusable AS4 answer (HTTP " + httpStatus + "): " + reason)
        : Outcome.failed(reason);
  }

  private static String describe(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() == null || out.indexOf(t.getMessage()) >= 0) continue;
      if (out.length() > 0) out.append(": ");
      out.append(t.getMessage());
    }
    return out.length() == 0 ? e.getClass().getSimpleName() : out.toString();
  }

  private static Throwable rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) t = t.getCause();
    return t;
  }
}
