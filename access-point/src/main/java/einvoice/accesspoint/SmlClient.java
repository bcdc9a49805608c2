package einvoice.accesspoint;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.net.ssl.SSLException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The SML's management interface (BDMSL, SOAP 1.1 over client-certificate TLS): the messages of
 * the ManageServiceMetadataService-1.0 and ManageBusinessIdentifierService-1.0 WSDLs that
 * peppol-commons' peppol-sml-client sends, element for element and with the same SOAP actions.
 * That library is not served by the Maven repository this project can reach, so the few messages
 * are written here with the JDK's DOM and HTTP client.
 */
final class SmlClient {
  static final String LOCATOR = "http://busdox.org/serviceMetadata/locator/1.0/";
  static final String IDS = "http://busdox.org/transport/identifiers/1.0/";
  static final String PARTICIPANT_SCHEME = "iso6523-actorid-upis";
  private static final String SOAP = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final String SMP_ACTION = "http://busdox.org/serviceMetadata/ManageServiceMetadataService/1.0/:";
  // The nine blanks are in the WSDL's soapAction, as the EC's SML implements it.
  private static final String PARTICIPANT_ACTION =
      "http://busdox.org/serviceMetadata/ManageBusinessIdentifierService/1.0/         :";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

  /** The SML answered with a SOAP fault; `kind` is its detail element (BadRequestFault, NotFoundFault, ...). */
  static final class Fault extends Exception {
    final String kind;

    Fault(String kind, String message) {
      super(message);
      this.kind = kind;
    }

    boolean is(String faultKind) {
      return kind.equals(faultKind);
    }
  }

  /** No SOAP answer: not reached, timed out, TLS refused, or HTTP without a SOAP envelope. */
  static final class Unavailable extends Exception {
    /** When trying again cannot help (TLS refused, an HTTP 4xx): only the operator can. */
    final boolean permanent;

    Unavailable(String message, boolean permanent) {
      super(message);
      this.permanent = permanent;
    }
  }

  record SmpRecord(String logicalAddress, String physicalAddress) {}

  record Page(List<String> participantValues, String nextPageId) {}

  private final SmlSettings settings;
  private final HttpClient http;

  SmlClient(SmlSettings settings) {
    this.settings = settings;
    this.http = HttpClient.newBuilder()
        .sslContext(settings.tls())
        .connectTimeout(CONNECT_TIMEOUT)
        .version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  SmpRecord readSmp() throws Fault, Unavailable {
    Document request = message("ReadServiceMetadataPublisherService");
    text(request.getDocumentElement(), LOCATOR, "ServiceMetadataPublisherID", settings.smpId());
    Element answer = call("manageservicemetadata", SMP_ACTION + "readIn", request);
    Element endpoint = child(answer, LOCATOR, "PublisherEndpoint");
    if (endpoint == null) throw new Unavailable("the SML's Read answer has no PublisherEndpoint", false);
    return new SmpRecord(textOf(endpoint, "LogicalAddress"), textOf(endpoint, "PhysicalAddress"));
  }

  /** Create (`update` false) or Update the SMP record with our addresses. */
  void writeSmp(boolean update) throws Fault, Unavailable {
    Document request = message(update ? "UpdateServiceMetadataPublisherService" : "CreateServiceMetadataPublisherService");
    Element endpoint = text(request.getDocumentElement(), LOCATOR, "PublisherEndpoint", null);
    text(endpoint, LOCATOR, "LogicalAddress", settings.smpUrl());
    text(endpoint, LOCATOR, "PhysicalAddress", settings.smpIp());
    text(request.getDocumentElement(), LOCATOR, "ServiceMetadataPublisherID", settings.smpId());
    call("manageservicemetadata", SMP_ACTION + (update ? "updateIn" : "createIn"), request);
  }

  void createParticipant(String value) throws Fault, Unavailable {
    call("manageparticipantidentifier", PARTICIPANT_ACTION + "createIn", forParticipant("CreateParticipantIdentifier", value));
  }

  void deleteParticipant(String value) throws Fault, Unavailable {
    call("manageparticipantidentifier", PARTICIPANT_ACTION + "deleteIn", forParticipant("DeleteParticipantIdentifier", value));
  }

  /** PrepareToMigrate: as the participant's current SMP, lets another SMP take it over with this key. */
  void prepareToMigrate(String value, String migrationKey) throws Fault, Unavailable {
    call("manageparticipantidentifier", PARTICIPANT_ACTION + "prepareMigrateIn", migrationRecord("PrepareMigrationRecord", value, migrationKey));
  }

  /** Migrate: takes the participant over from the SMP that prepared the migration with this key. */
  void migrate(String value, String migrationKey) throws Fault, Unavailable {
    call("manageparticipantidentifier", PARTICIPANT_ACTION + "migrateIn", migrationRecord("CompleteMigrationRecord", value, migrationKey));
  }

  /** One page of the participants registered for our SMP; the first page's id is empty. */
  Page listParticipants(String pageId) throws Fault, Unavailable {
    Document request = message("PageRequest");
    text(request.getDocumentElement(), LOCATOR, "ServiceMetadataPublisherID", settings.smpId());
    text(request.getDocumentElement(), LOCATOR, "NextPageIdentifier", pageId);
    Element answer = call("manageparticipantidentifier", PARTICIPANT_ACTION + "listIn", request);
    List<String> values = new ArrayList<>();
    String next = null;
    for (Node node = answer.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (!(node instanceof Element element)) continue;
      if (IDS.equals(element.getNamespaceURI()) && "ParticipantIdentifier".equals(element.getLocalName())
          && PARTICIPANT_SCHEME.equalsIgnoreCase(element.getAttribute("scheme"))) {
        values.add(element.getTextContent().trim());
      } else if (LOCATOR.equals(element.getNamespaceURI()) && "NextPageIdentifier".equals(element.getLocalName())) {
        next = element.getTextContent().trim();
      }
    }
    return new Page(values, next == null || next.isEmpty() ? null : next);
  }

  private Document forParticipant(String root, String value) {
    Document request = message(root);
    text(request.getDocumentElement(), LOCATOR, "ServiceMetadataPublisherID", settings.smpId());
    Element participant = text(request.getDocumentElement(), IDS, "ids:ParticipantIdentifier", value);
    participant.setAttribute("scheme", PARTICIPANT_SCHEME);
    return request;
  }

  /** A MigrationRecordType: the participant's element, then the key. */
  private Document migrationRecord(String root, String value, String migrationKey) {
    Document request = forParticipant(root, value);
    text(request.getDocumentElement(), LOCATOR, "MigrationKey", migrationKey);
    return request;
  }

  /** POSTs the envelope around `request`; the Body's first element of the answer (null for an empty Body). */
  private Element call(String service, String action, Document request) throws Fault, Unavailable {
    URI endpoint = URI.create(settings.url() + "/" + service);
    HttpResponse<byte[]> response;
    try {
      response = http.send(HttpRequest.newBuilder(endpoint)
          .timeout(REQUEST_TIMEOUT)
          .header("Content-Type", "text/xml; charset=utf-8")
          .header("SOAPAction", "\"" + action + "\"")
          .POST(HttpRequest.BodyPublishers.ofString(envelope(request)))
          .build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (SSLException e) {
      throw new Unavailable("TLS with the SML at " + endpoint + " failed (" + e.getMessage()
          + "): does the SML accept our SMP certificate (SML_KEYSTORE), and is its server certificate trusted?", true);
    } catch (HttpTimeoutException e) {
      throw new Unavailable("the SML at " + endpoint + " did not answer in time (" + e.getMessage() + ")", false);
    } catch (IOException e) {
      throw new Unavailable("the SML at " + endpoint + " could not be reached (" + e + ")", false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("interrupted while calling the SML", false);
    }
    Element body = soapBody(response.body());
    // BDMSL answers a fault with HTTP 500 as SOAP 1.1 says, older versions with 400/401/404: the envelope decides.
    Element fault = body == null ? null : child(body, SOAP, "Fault");
    if (fault != null) throw fault(fault);
    int status = response.statusCode();
    if (status != 200 || body == null) {
      throw new Unavailable("the SML at " + endpoint + " answered HTTP " + status + " without a SOAP answer",
          status >= 400 && status < 500 && status != 408 && status != 429);
    }
    for (Node node = body.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) return element;
    }
    return null;
  }

  private static Fault fault(Element fault) {
    String faultString = textOf(fault, null, "faultstring");
    Element detail = child(fault, null, "detail");
    for (Node node = detail == null ? null : detail.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element typed && LOCATOR.equals(typed.getNamespaceURI())) {
        String message = textOf(typed, LOCATOR, "FaultMessage");
        return new Fault(typed.getLocalName(), message.isEmpty() ? faultString : message);
      }
    }
    // A fault without a typed detail (not one BDMSL's WSDL declares): the SOAP fault code says whose fault it is.
    String code = textOf(fault, null, "faultcode");
    return new Fault(code.endsWith("Client") ? "BadRequestFault" : "InternalErrorFault", faultString);
  }

  private Document message(String root) {
    Document document = newBuilder().newDocument();
    document.appendChild(document.createElementNS(LOCATOR, root));
    return document;
  }

  /** Appends an element (with text, unless null) and returns it. */
  private static Element text(Element parent, String namespace, String qualifiedName, String value) {
    Element element = parent.getOwnerDocument().createElementNS(namespace, qualifiedName);
    if (value != null) element.setTextContent(value);
    parent.appendChild(element);
    return element;
  }

  private static String envelope(Document request) {
    try {
      Document envelope = newBuilder().newDocument();
      Element root = envelope.createElementNS(SOAP, "S:Envelope");
      envelope.appendChild(root);
      Element body = envelope.createElementNS(SOAP, "S:Body");
      root.appendChild(body);
      body.appendChild(envelope.importNode(request.getDocumentElement(), true));
      StringWriter out = new StringWriter();
      var transformer = TransformerFactory.newInstance().newTransformer();
      transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      transformer.transform(new DOMSource(envelope), new StreamResult(out));
      return out.toString();
    } catch (Exception e) {
      throw new IllegalStateException("could not write a SOAP message: " + e, e);
    }
  }

  /** The answer's SOAP Body, or null when the bytes are not a SOAP 1.1 envelope. */
  private static Element soapBody(byte[] answer) {
    try {
      Element root = newBuilder().parse(new ByteArrayInputStream(answer)).getDocumentElement();
      return SOAP.equals(root.getNamespaceURI()) && "Envelope".equals(root.getLocalName()) ? child(root, SOAP, "Body") : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** The first child element of that name; any namespace when `namespace` is null (SOAP 1.1 fault parts have none). */
  private static Element child(Element parent, String namespace, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && name.equals(element.getLocalName())
          && (namespace == null || namespace.equals(element.getNamespaceURI()))) {
        return element;
      }
    }
    return null;
  }

  private static String textOf(Element parent, String namespace, String name) {
    Element element = child(parent, namespace, name);
    return element == null ? "" : element.getTextContent().trim();
  }

  private static String textOf(Element parent, String name) {
    return textOf(parent, LOCATOR, name);
  }

  /** Namespace-aware, and refusing DTDs: the SML's answers cannot make the parser read files or expand entities. */
  private static DocumentBuilder newBuilder() {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      return factory.newDocumentBuilder();
    } catch (Exception e) {
      throw new IllegalStateException("no XML parser: " + e, e);
    }
  }
}
