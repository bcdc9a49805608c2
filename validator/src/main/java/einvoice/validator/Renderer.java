package einvoice.validator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.Source;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stream.StreamSource;

import net.sf.saxon.s9api.Destination;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SAXDestination;
import net.sf.saxon.s9api.SaxonApiException;
import net.sf.saxon.s9api.Serializer;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XsltCompiler;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.Xslt30Transformer;

import org.apache.fop.apps.FOUserAgent;
import org.apache.fop.apps.Fop;
import org.apache.fop.apps.FopFactory;
import org.apache.fop.apps.FopConfParser;
import org.apache.xmlgraphics.io.Resource;
import org.apache.xmlgraphics.io.ResourceResolver;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;

/**
 * A UBL invoice or credit note, or a CII invoice, as a person reads it, by KoSIT's xrechnung-visualization
 * stylesheets: the document to the XRechnung intermediate form (one stylesheet per document kind), then that to HTML, or to
 * XSL-FO which Apache FOP lays out as a PDF. Every stylesheet is compiled once, at start.
 *
 * <p>The HTML and the PDF are the viewer's, with our labels, number and date formats in English, German,
 * French and Dutch, and the intermediate form tidied for a reader (render/html.xsl and render/pdf.xsl over
 * the viewer's stylesheets, render/labels.xml).
 */
final class Renderer {
  enum Format {
    HTML("text/html; charset=utf-8"),
    PDF("application/pdf"),
    /** A PDF/A-3 with the invoice as CII inside it ({@link FacturX}); only a CII document can be one. */
    FACTURX("application/pdf");

    final String contentType;

    Format(String contentType) {
      this.contentType = contentType;
    }

    static Format named(String name) {
      for (Format format : values()) {
        if (format.name().equalsIgnoreCase(name)) {
          return format;
        }
      }
      throw new IllegalArgumentException("unknown format " + name + "; use html, pdf or facturx");
    }
  }

  /** The languages render/labels.xml has a column for. */
  static final Map<Format, List<String>> LANGUAGES = Map.of(Format.HTML, List.of("en", "de", "fr", "nl"), Format.PDF, List.of("en", "de", "fr", "nl"));

  /** A document the stylesheets cannot take: not XML, or neither a UBL invoice or credit note nor a CII invoice. */
  static final class NotRenderable extends Exception {
    NotRenderable(String message) {
      super(message);
    }
  }

  private static final String UBL_INVOICE = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  private static final String UBL_CREDIT_NOTE = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
  private static final String CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
  /** The fonts the PDF layout names, bundled beside the stylesheets. */
  private static final Set<String> FONTS = Set.of("SourceSansPro-Regular.ttf", "SourceSansPro-It.ttf", "SourceSansPro-Bold.ttf",
      "SourceSansPro-BoldIt.ttf", "SourceSerifPro-Regular.ttf", "SourceSerifPro-It.ttf", "SourceSerifPro-Bold.ttf", "SourceSerifPro-BoldIt.ttf");

  private final Processor processor = new Processor(false);
  private final XsltExecutable invoiceToXr;
  private final XsltExecutable creditNoteToXr;
  private final XsltExecutable ciiToXr;
  private final XsltExecutable xrToHtml;
  private final XsltExecutable xrToFo;
  private final FopFactory fopFactory;

  Renderer() throws SaxonApiException, IOException, SAXException {
    processor.registerExtensionFunction(new CountryName());
    XsltCompiler compiler = processor.newXsltCompiler();
    invoiceToXr = compile(compiler, "/stylesheets/ubl-invoice-xr.xsl");
    creditNoteToXr = compile(compiler, "/stylesheets/ubl-creditnote-xr.xsl");
    ciiToXr = compile(compiler, "/stylesheets/cii-xr.xsl");
    xrToHtml = compile(compiler, "/render/html.xsl");
    xrToFo = compile(compiler, "/render/pdf.xsl");
    fopFactory = fopFactory();
  }

  /**
   * The document in {@code format} and {@code lang} (one of {@link #LANGUAGES}; a Factur-X has the PDF's),
   * a PDF with {@code notice} stamped on every page unless it is empty.
   */
  byte[] render(byte[] document, Format format, String lang, String notice) throws NotRenderable, SaxonApiException, IOException, SAXException {
    List<String> languages = LANGUAGES.get(format == Format.FACTURX ? Format.PDF : format);
    if (!languages.contains(lang)) {
      throw new IllegalArgumentException("no " + lang + " for " + format.name().toLowerCase() + "; use one of " + languages);
    }
    XdmNode xr = intermediate(document, format);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (format == Format.HTML) {
      Serializer serializer = processor.newSerializer(out);
      transform(xrToHtml, xr, lang, serializer);
      return out.toByteArray();
    }
    FOUserAgent agent = fopFactory.newFOUserAgent();
    agent.setProducer("einvoice");
    if (format == Format.FACTURX) {
      // FOP checks as it lays out what PDF/A-3 forbids (a font not embedded, say) and writes its identification and output intent.
      agent.getRendererOptions().put("pdf-a-mode", "PDF/A-3b");
    }
    Fop fop = fopFactory.newFop(org.apache.xmlgraphics.util.MimeConstants.MIME_PDF, agent, out);
    transform(xrToFo, xr, lang, new SAXDestination(fop.getDefaultHandler()));
    byte[] pdf = notice.isEmpty() ? out.toByteArray() : Notice.stamped(out.toByteArray(), notice);
    return format == Format.FACTURX ? FacturX.attach(pdf, document) : pdf;
  }

  /** The document in the XRechnung intermediate form, by the stylesheet of its kind (a Factur-X is made of CII only). */
  private XdmNode intermediate(byte[] bytes, Format format) throws NotRenderable, SaxonApiException {
    XdmNode document;
    try {
      document = processor.newDocumentBuilder().build(secureSource(bytes));
    } catch (SaxonApiException e) {
      throw new NotRenderable("the document is not well-formed XML: " + e.getMessage());
    }
    String kind = document.children().iterator().hasNext() ? rootNamespace(document) : "";
    if (format == Format.FACTURX && !kind.equals(CII)) {
      throw new NotRenderable("a Factur-X is made of a CII CrossIndustryInvoice only");
    }
    XsltExecutable toXr = switch (kind) {
      case UBL_INVOICE -> invoiceToXr;
      case UBL_CREDIT_NOTE -> creditNoteToXr;
      case CII -> ciiToXr;
      default -> throw new NotRenderable("only a UBL Invoice or CreditNote or a CII CrossIndustryInvoice can be rendered");
    };
    XdmDestination xr = new XdmDestination();
    toXr.load30().transform(document.asSource(), xr);
    return xr.getXdmNode();
  }

  private static String rootNamespace(XdmNode document) {
    for (XdmNode child : document.children()) {
      if (child.getNodeName() != null) {
        return child.getNodeName().getNamespace();
      }
    }
    return "";
  }

  private static void transform(XsltExecutable stylesheet, XdmNode input, String lang, Destination destination) throws SaxonApiException {
    Xslt30Transformer transformer = stylesheet.load30();
    transformer.setStylesheetParameters(Map.of(new QName("lang"), new XdmAtomicValue(lang), new QName("foengine"), new XdmAtomicValue("fop")));
    transformer.transform(input.asSource(), destination);
  }

  /** The document parsed without DOCTYPEs or external entities: what it names is never fetched. */
  private static Source secureSource(byte[] xml) throws SaxonApiException {
    try {
      SAXParserFactory factory = SAXParserFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      XMLReader reader = factory.newSAXParser().getXMLReader();
      return new SAXSource(reader, new InputSource(new ByteArrayInputStream(xml)));
    } catch (ParserConfigurationException | SAXException e) {
      throw new SaxonApiException(e);
    }
  }

  private static XsltExecutable compile(XsltCompiler compiler, String path) throws SaxonApiException, IOException {
    URL url = resource(path);
    // The stylesheet's own address as its base, so its imports, includes and label files resolve beside it in the jar.
    return compiler.compile(new StreamSource(url.openStream(), url.toExternalForm()));
  }

  /**
   * FOP reads its fonts from the jar and nothing else: a document never makes it fetch anything
   * (an attachment's or a logo's address included).
   */
  private static FopFactory fopFactory() throws IOException, SAXException {
    ResourceResolver fontsOnly = new ResourceResolver() {
      @Override
      public Resource getResource(URI uri) throws IOException {
        String path = uri.getPath() == null ? uri.getSchemeSpecificPart() : uri.getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (!FONTS.contains(name)) {
          throw new IOException("the renderer reads no resource " + uri);
        }
        return new Resource(resource("/fonts/" + name).openStream());
      }

      @Override
      public OutputStream getOutputStream(URI uri) throws IOException {
        throw new IOException("the renderer writes no resource " + uri);
      }
    };
    // Parsed with the resolver, so the font manager uses it too (a configuration set on a builder afterwards would not).
    try (InputStream config = resource("/render/fop.xconf").openStream()) {
      return new FopConfParser(config, URI.create("fonts:///"), fontsOnly).getFopFactoryBuilder().build();
    }
  }

  private static URL resource(String path) throws IOException {
    URL url = Renderer.class.getResource(path);
    if (url == null) {
      throw new IOException("the renderer's resource " + path + " is missing from the jar");
    }
    return url;
  }
}
