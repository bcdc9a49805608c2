package einvoice.accesspoint;

import java.io.ByteArrayInputStream;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import com.helger.phase4.model.error.EEbmsError;

/**
 * A payload measured in one streaming pass before anything builds a tree of it: the SBD reader (JAXB,
 * a DOM for the business document) recurses once per level, and a payload nested some 8,000 deep
 * overflows a handler thread's stack, so the sender would get no answer at all. The bound sits far
 * above any business document (a UBL invoice nests about 10 levels; the service files anything deeper
 * than 64 with that as its finding) and far below the JDK's limit. A DOCTYPE is refused too: Peppol
 * payloads carry no DTD, and none is ever read.
 */
final class PayloadShape {
  /** Deepest nesting handed on; deeper is refused with an AS4 error. */
  static final int MAX_DEPTH = 2_500;

  private static final XMLInputFactory FACTORY = XMLInputFactory.newFactory();

  static {
    FACTORY.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    FACTORY.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
  }

  private PayloadShape() {}

  static void check(byte[] payload) throws InboundRefusal {
    int depth = 0;
    try {
      XMLStreamReader reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(payload));
      try {
        while (reader.hasNext()) {
          switch (reader.next()) {
            case XMLStreamConstants.START_ELEMENT -> {
              depth += 1;
              if (depth > MAX_DEPTH) {
                throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The payload nests elements deeper than " + MAX_DEPTH + " levels");
              }
            }
            case XMLStreamConstants.END_ELEMENT -> depth -= 1;
            case XMLStreamConstants.DTD -> throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The payload carries a DOCTYPE declaration");
            default -> {
              // text, comments, processing instructions: nothing to measure
            }
          }
        }
      } finally {
        reader.close();
      }
    } catch (XMLStreamException e) {
      throw new InboundRefusal(EEbmsError.EBMS_OTHER, "The payload is not well-formed XML");
    }
  }
}
