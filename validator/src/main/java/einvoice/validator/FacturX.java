package einvoice.validator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentCatalog;
import org.apache.pdfbox.pdmodel.PDDocumentNameDictionary;
import org.apache.pdfbox.pdmodel.PDEmbeddedFilesNameTreeNode;
import org.apache.pdfbox.pdmodel.common.PDMetadata;
import org.apache.pdfbox.pdmodel.common.filespecification.PDComplexFileSpecification;
import org.apache.pdfbox.pdmodel.common.filespecification.PDEmbeddedFile;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/**
 * A Factur-X (ZUGFeRD 2) invoice: the PDF/A-3 a person reads with the CII a program reads inside it,
 * as the standard places it. The CII is an associated file of the document ({@code /AF} in the catalog,
 * {@code AFRelationship} Alternative: the XML states the same invoice as the pages), named
 * {@code factur-x.xml} in the embedded files, and the XMP metadata says so in the Factur-X schema (with
 * its PDF/A extension schema description, without which a PDF/A reader refuses an unknown schema).
 */
final class FacturX {
  /** The embedded file's name: readers look for exactly this one. */
  static final String FILE_NAME = "factur-x.xml";
  /** The profile our CII follows: EN 16931 (Factur-X's "EN 16931", ZUGFeRD's COMFORT). */
  static final String CONFORMANCE_LEVEL = "EN 16931";

  private static final String FX = "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#";
  private static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
  private static final String PDFA_EXTENSION = "http://www.aiim.org/pdfa/ns/extension/";
  private static final String PDFA_SCHEMA = "http://www.aiim.org/pdfa/ns/schema#";
  private static final String PDFA_PROPERTY = "http://www.aiim.org/pdfa/ns/property#";

  /** A property of the Factur-X schema: its value in our documents, and what the extension schema says of it. */
  private record Property(String name, String value, String description) {}

  private static final List<Property> PROPERTIES = List.of(
      new Property("DocumentFileName", FILE_NAME, "The name of the embedded XML invoice"),
      new Property("DocumentType", "INVOICE", "The kind of the embedded document"),
      new Property("Version", "1.0", "The version of the Factur-X XML schema"),
      new Property("ConformanceLevel", CONFORMANCE_LEVEL, "The profile of the embedded XML invoice"));

  private FacturX() {}

  /** {@code pdfA3} (a PDF/A-3 from FOP) with {@code cii} attached as its Factur-X invoice. */
  static byte[] attach(byte[] pdfA3, byte[] cii) throws IOException {
    try (PDDocument pdf = Loader.loadPDF(pdfA3)) {
      PDDocumentCatalog catalog = pdf.getDocumentCatalog();
      PDComplexFileSpecification file = fileSpecification(pdf, cii);
      PDEmbeddedFilesNameTreeNode embedded = new PDEmbeddedFilesNameTreeNode();
      embedded.setNames(Map.of(FILE_NAME, file));
      PDDocumentNameDictionary names = new PDDocumentNameDictionary(catalog);
      names.setEmbeddedFiles(embedded);
      catalog.setNames(names);
      COSArray associated = new COSArray();
      associated.add(file);
      catalog.getCOSObject().setItem(COSName.AF, associated);
      PDMetadata metadata = catalog.getMetadata();
      try (InputStream xmp = metadata.exportXMPMetadata()) {
        metadata.importXMPMetadata(withFacturXSchema(xmp));
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      pdf.save(out);
      return out.toByteArray();
    }
  }

  private static PDComplexFileSpecification fileSpecification(PDDocument pdf, byte[] cii) throws IOException {
    PDEmbeddedFile content = new PDEmbeddedFile(pdf, new ByteArrayInputStream(cii));
    content.setSubtype("text/xml");
    content.setSize(cii.length);
    Calendar now = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    content.setCreationDate(now);
    content.setModDate(now);
    PDComplexFileSpecification file = new PDComplexFileSpecification();
    file.setFile(FILE_NAME);
    file.setFileUnicode(FILE_NAME);
    file.setFileDescription("The invoice as EN 16931 CII (Factur-X)");
    file.setEmbeddedFile(content);
    file.setEmbeddedFileUnicode(content);
    file.getCOSObject().setName(COSName.getPDFName("AFRelationship"), "Alternative");
    return file;
  }

  /** FOP's XMP packet with the Factur-X properties and the extension schema that declares them. */
  private static byte[] withFacturXSchema(InputStream xmp) throws IOException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      Document packet = factory.newDocumentBuilder().parse(xmp);
      Element rdf = (Element) packet.getElementsByTagNameNS(RDF, "RDF").item(0);
      rdf.appendChild(facturXDescription(packet));
      rdf.appendChild(extensionDescription(packet));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      var serializer = TransformerFactory.newInstance().newTransformer();
      serializer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      serializer.transform(new DOMSource(packet), new StreamResult(out));
      return out.toByteArray();
    } catch (ParserConfigurationException | SAXException | TransformerException e) {
      throw new IOException("the PDF's XMP metadata could not be extended: " + e.getMessage(), e);
    }
  }

  private static Element facturXDescription(Document packet) {
    Element description = description(packet);
    description.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:fx", FX);
    for (Property property : PROPERTIES) {
      description.appendChild(text(packet, FX, "fx:" + property.name(), property.value()));
    }
    return description;
  }

  /** The PDF/A extension schema naming the Factur-X schema, its prefix and its four text properties. */
  private static Element extensionDescription(Document packet) {
    Element description = description(packet);
    description.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:pdfaExtension", PDFA_EXTENSION);
    description.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:pdfaSchema", PDFA_SCHEMA);
    description.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:pdfaProperty", PDFA_PROPERTY);
    Element schema = resource(packet);
    schema.appendChild(text(packet, PDFA_SCHEMA, "pdfaSchema:schema", "Factur-X PDFA Extension Schema"));
    schema.appendChild(text(packet, PDFA_SCHEMA, "pdfaSchema:namespaceURI", FX));
    schema.appendChild(text(packet, PDFA_SCHEMA, "pdfaSchema:prefix", "fx"));
    Element properties = packet.createElementNS(PDFA_SCHEMA, "pdfaSchema:property");
    Element sequence = packet.createElementNS(RDF, "rdf:Seq");
    for (Property property : PROPERTIES) {
      Element item = resource(packet);
      item.appendChild(text(packet, PDFA_PROPERTY, "pdfaProperty:name", property.name()));
      item.appendChild(text(packet, PDFA_PROPERTY, "pdfaProperty:valueType", "Text"));
      item.appendChild(text(packet, PDFA_PROPERTY, "pdfaProperty:category", "external"));
      item.appendChild(text(packet, PDFA_PROPERTY, "pdfaProperty:description", property.description()));
      sequence.appendChild(item);
    }
    properties.appendChild(sequence);
    schema.appendChild(properties);
    Element schemas = packet.createElementNS(PDFA_EXTENSION, "pdfaExtension:schemas");
    Element bag = packet.createElementNS(RDF, "rdf:Bag");
    bag.appendChild(schema);
    schemas.appendChild(bag);
    description.appendChild(schemas);
    return description;
  }

  private static Element description(Document packet) {
    Element description = packet.createElementNS(RDF, "rdf:Description");
    description.setAttributeNS(RDF, "rdf:about", "");
    return description;
  }

  /** An {@code rdf:li} holding a structure (parseType Resource), as XMP writes a struct in an array. */
  private static Element resource(Document packet) {
    Element item = packet.createElementNS(RDF, "rdf:li");
    item.setAttributeNS(RDF, "rdf:parseType", "Resource");
    return item;
  }

  private static Element text(Document packet, String namespace, String name, String value) {
    Element element = packet.createElementNS(namespace, name);
    element.setTextContent(value);
    return element;
  }
}
