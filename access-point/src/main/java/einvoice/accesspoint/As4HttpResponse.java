package einvoice.accesspoint;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;

import com.helger.base.io.iface.IHasInputStream;
import com.helger.http.header.HttpHeaderMap;
import com.helger.mime.IMimeType;
import com.helger.phase4.incoming.IAS4ResponseAbstraction;
import com.sun.net.httpserver.HttpExchange;

/** Collects phase4's AS4 answer (receipt or error) and writes it to the JDK HTTP exchange. */
final class As4HttpResponse implements IAS4ResponseAbstraction {
  private int status = 200;
  private String contentType;
  private Charset charset;
  private byte[] bytes;
  private IHasInputStream stream;
  private HttpHeaderMap headers;

  @Override
  public void setContent(byte[] content, Charset contentCharset) {
    bytes = content;
    charset = contentCharset;
  }

  @Override
  public void setContent(HttpHeaderMap headerMap, IHasInputStream content) {
    headers = headerMap;
    stream = content;
  }

  @Override
  public void setMimeType(IMimeType mimeType) {
    contentType = mimeType.getAsString();
  }

  @Override
  public void setStatus(int statusCode) {
    status = statusCode;
  }

  void writeTo(HttpExchange exchange) throws IOException {
    if (headers != null) headers.forEachSingleHeader((name, value) -> exchange.getResponseHeaders().add(name, value), true);
    if (contentType != null) {
      boolean needsCharset = charset != null && !contentType.toLowerCase().contains("charset=");
      exchange.getResponseHeaders().set("Content-Type", contentType + (needsCharset ? "; charset=" + charset.name() : ""));
    }
    if (bytes == null && stream == null) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    // MIME answers are streamed (length unknown: chunked); XML answers go out with their length.
    exchange.sendResponseHeaders(status, bytes != null ? (bytes.length == 0 ? -1 : bytes.length) : 0);
    try (OutputStream out = exchange.getResponseBody()) {
      if (bytes != null) {
        out.write(bytes);
      } else {
        try (InputStream in = stream.getBufferedInputStream()) {
          in.transferTo(out);
        }
      }
    }
  }
}
