package einvoice.accesspoint;

import java.io.IOException;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.HttpClientResponseHandler;

import com.helger.http.header.HttpHeaderMap;
import com.helger.httpclient.HttpClientFactory;
import com.helger.httpclient.HttpClientManager;
import com.helger.phase4.messaging.http.BasicHttpPoster;

/**
 * phase4's poster with one HTTP client for the life of the process. BasicHttpPoster builds an HTTP client
 * (connection pool, TLS context) for every message and closes it after, so each send also paid a new
 * client and a new TCP (and TLS) connection; this one keeps both, so connections to a receiving access
 * point are reused while it keeps them alive. Only the plain send is replaced: retries, dumping and
 * everything AS4 stay phase4's (its sendGenericMessageWithRetries calls this method).
 */
final class PooledHttpPoster extends BasicHttpPoster {
  private final HttpClientManager client;

  PooledHttpPoster(HttpClientFactory factory) {
    setHttpClientFactory(factory);
    this.client = new HttpClientManager(factory);
    Runtime.getRuntime().addShutdownHook(new Thread(client::close));
  }

  @Override
  public <T> T sendGenericMessage(String url, HttpHeaderMap headers, HttpEntity entity,
      HttpClientResponseHandler<? extends T> handler) throws IOException {
    HttpPost post = new HttpPost(url);
    if (headers != null) headers.forEachSingleHeader(post::addHeader, true, isQuoteHttpHeaders());
    post.setEntity(entity);
    if (getHttpCustomizer() != null) getHttpCustomizer().accept(post);
    return client.execute(post, handler);
  }
}
