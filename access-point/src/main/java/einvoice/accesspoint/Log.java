package einvoice.accesspoint;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Our one logger: one line per sent or received message; phase4's own loggers stay at WARN. */
final class Log {
  static final Logger LOG = LoggerFactory.getLogger("einvoice.accesspoint");

  private Log() {}
}
