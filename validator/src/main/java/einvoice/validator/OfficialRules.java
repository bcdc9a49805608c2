package einvoice.validator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

import com.helger.diagnostics.error.IError;
import com.helger.diagnostics.error.level.EErrorLevel;
import com.helger.io.resource.inmemory.ReadableResourceByteArray;
import com.helger.phive.api.execute.ValidationExecutionManager;
import com.helger.phive.api.executorset.IValidationExecutorSet;
import com.helger.phive.api.executorset.ValidationExecutorSetRegistry;
import com.helger.phive.api.result.ValidationResult;
import com.helger.phive.api.result.ValidationResultList;
import com.helger.phive.api.validity.IValidityDeterminator;
import com.helger.phive.en16931.EN16931Validation;
import com.helger.phive.peppol.PeppolValidation;
import com.helger.phive.xrechnung.XRechnungValidation;
import com.helger.phive.xml.source.IValidationSourceXML;
import com.helger.phive.xml.source.ValidationSourceXML;

/**
 * The newest official Peppol rule sets phive-rules-peppol carries, chosen by the document:
 * BIS Billing 3.0 for a UBL Invoice or CreditNote (UBL 2.1 XSD, CEN EN 16931 schematron, Peppol
 * schematron with the national rules); for a UBL ApplicationResponse, by its CustomizationID, the
 * Invoice Response (T111) or the Message Level Status set; the Transaction Statistics and End User
 * Statistics Report sets for those roots; for a UN/CEFACT CrossIndustryInvoice, CEN's EN 16931 CII rules;
 * for a billing document claiming XRechnung 3.0, KoSIT's rules, and claiming a PINT specialisation, its PINT rules. Executor sets are read-only once built, so one instance
 * serves every request thread.
 */
final class OfficialRules {
  private static final String UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  private static final String UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
  private static final String UBL_APPLICATION_RESPONSE_NS = "urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2";
  private static final String UBL_CBC_NS = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
  private static final String CII_NS = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
  private static final String TSR_NS = "urn:fdc:peppol:transaction-statistics-report:1.0";
  private static final String EUSR_NS = "urn:fdc:peppol:end-user-statistics-report:1.1";
  /** BIS Invoice Response 3.x: PEPPOL-T111-R003 asks the CustomizationID to start with this. */
  private static final String INVOICE_RESPONSE_CUSTOMIZATION = "urn:fdc:peppol.eu:poacc:trns:invoice_response:3";
  private static final String MLS_CUSTOMIZATION = "urn:peppol:edec:mls:1.0";
  // The coordinates phive-rules-peppol registers each rule set under (group, artifact).
  private static final String BIS3_GROUP = "eu.peppol.bis3";
  private static final String MLS_GROUP = "org.peppol";
  private static final String REPORTING_GROUP = "eu.peppol.reporting";
  private static final String EN16931_GROUP = "eu.cen.en16931";
  private static final String XRECHNUNG_GROUP = "de.xrechnung";
  /** XRechnung 3.0's specification identifier (BT-24), which its documents carry as CustomizationID or guideline. */
  private static final String XRECHNUNG_CUSTOMIZATION = "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0";
  private static final String CII_RAM_NS = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
  /** Peppol International (PINT) billing: its CustomizationID, then `@` and the jurisdiction's specialisation. */
  private static final String PINT_BILLING = "urn:peppol:pint:billing-1";
  /** The jurisdictions whose PINT rules phive-rules-peppol carries that this service routes to: specialisation → rule group. */
  private static final Map<String, String> PINT_GROUPS = Map.of(
      "eu-1", "org.peppol.pint.eu", "aunz-1", "org.peppol.pint.aunz", "sg-1", "org.peppol.pint.sg", "jp-1", "org.peppol.pint.jp", "my-1", "org.peppol.pint.my");
  /** Findings the XSD step reports carry no rule id of their own. */
  private static final String SCHEMA_RULE = "UBL-XSD";

  record Finding(String rule, boolean fatal, String message, String location) {}

  /** Why a body could not be validated at all; null when it was. */
  record Problem(String code, String message) {}

  /** {@code ruleSet}: the id of the executor set that judged it ("eu.peppol.bis3:invoice-message-response:2026.5"). */
  record Report(String documentType, String ruleSet, Problem problem, List<Finding> findings) {
    boolean valid() {
      return problem == null && findings.stream().noneMatch(Finding::fatal);
    }
  }

  /** The billing release both billing executor sets belong to, e.g. id "eu.peppol.bis3:2026.5". */
  record RuleSet(String id, String name, String validFrom) {}

  private final IValidationExecutorSet<IValidationSourceXML> invoiceSet;
  private final IValidationExecutorSet<IValidationSourceXML> creditNoteSet;
  private final IValidationExecutorSet<IValidationSourceXML> invoiceResponseSet;
  private final IValidationExecutorSet<IValidationSourceXML> mlsSet;
  private final IValidationExecutorSet<IValidationSourceXML> tsrSet;
  private final IValidationExecutorSet<IValidationSourceXML> eusrSet;
  private final IValidationExecutorSet<IValidationSourceXML> ciiSet;
  private final IValidationExecutorSet<IValidationSourceXML> xrechnungInvoiceSet;
  private final IValidationExecutorSet<IValidationSourceXML> xrechnungCreditNoteSet;
  private final IValidationExecutorSet<IValidationSourceXML> xrechnungCiiSet;
  private final RuleSet ruleSet;
  private final ValidationExecutorSetRegistry<IValidationSourceXML> registry;

  OfficialRules() {
    registry = new ValidationExecutorSetRegistry<>();
    // Registers every release phive knows; "newest" is resolved here rather than naming a release
    // class that goes stale with each upgrade of phive-rules-peppol.
    PeppolValidation.initStandard(registry);
    // The CEN rules for the UN/CEFACT CII syntax (D16B XSD and the EN 16931 CII schematron): Peppol has no
    // rules of its own for CII, so a CII invoice is judged by the newest CEN release.
    EN16931Validation.initEN16931(registry);
    // A document that claims XRechnung 3.0 is judged by KoSIT's rules for it (which include EN 16931's).
    XRechnungValidation.initXRechnung(registry);
    invoiceSet = newest(registry, BIS3_GROUP, "invoice");
    creditNoteSet = newest(registry, BIS3_GROUP, "creditnote");
    // T111 is registered as "invoice-message-response" in each PeppolValidation20xx release.
    invoiceResponseSet = newest(registry, BIS3_GROUP, "invoice-message-response");
    mlsSet = newest(registry, MLS_GROUP, "mls");
    tsrSet = newest(registry, REPORTING_GROUP, "tsr");
    eusrSet = newest(registry, REPORTING_GROUP, "eusr");
    ciiSet = newest(registry, EN16931_GROUP, "cii");
    xrechnungInvoiceSet = newest(registry, XRECHNUNG_GROUP, "ubl-invoice");
    xrechnungCreditNoteSet = newest(registry, XRECHNUNG_GROUP, "ubl-creditnote");
    xrechnungCiiSet = newest(registry, XRECHNUNG_GROUP, "cii");
    String version = invoiceSet.getID().getVersionObj().getAsString();
    if (!version.equals(creditNoteSet.getID().getVersionObj().getAsString())) {
      throw new IllegalStateException("invoice and credit note rule sets are of different releases");
    }
    var status = invoiceSet.getStatus();
    // The display name reads "OpenPeppol UBL Invoice (2026.5) (aka BIS Billing 3.0.21)": keep the release.
    Matcher release = Pattern.compile("BIS Billing [0-9.]+").matcher(invoiceSet.getDisplayName());
    ruleSet = new RuleSet(BIS3_GROUP + ":" + version, release.find() ? "Peppol " + release.group() : invoiceSet.getDisplayName(),
        status.hasValidFrom() ? status.getValidFrom().toLocalDate().toString() : null);
  }

  RuleSet ruleSet() {
    return ruleSet;
  }

  /** The newest release of group:artifact that is not deprecated. */
  private static IValidationExecutorSet<IValidationSourceXML> newest(
      ValidationExecutorSetRegistry<IValidationSourceXML> registry, String groupId, String artifactId) {
    IValidationExecutorSet<IValidationSourceXML> set = registry.getLatestVersion(groupId, artifactId, null);
    if (set == null || set.getStatus().isDeprecated()) {
      throw new IllegalStateException("phive-rules-peppol registered no current " + groupId + ":" + artifactId);
    }
    return set;
  }

  private record Kind(String documentType, IValidationExecutorSet<IValidationSourceXML> set) {}

  /** The document kind and its rule set by root element (and, for an ApplicationResponse, CustomizationID); null when none fits. */
  private Kind kindOf(Element root) {
    String namespace = root.getNamespaceURI();
    String name = root.getLocalName();
    boolean xrechnung = isXRechnung(root);
    boolean invoice = UBL_INVOICE_NS.equals(namespace) && "Invoice".equals(name);
    boolean creditNote = UBL_CREDIT_NOTE_NS.equals(namespace) && "CreditNote".equals(name);
    if (invoice || creditNote) {
      var pint = pintSet(customizationId(root), invoice);
      if (pint != null) return new Kind(invoice ? "invoice" : "credit_note", pint);
    }
    if (invoice) return new Kind("invoice", xrechnung ? xrechnungInvoiceSet : invoiceSet);
    if (creditNote) return new Kind("credit_note", xrechnung ? xrechnungCreditNoteSet : creditNoteSet);
    if (TSR_NS.equals(namespace) && "TransactionStatisticsReport".equals(name)) return new Kind("tsr", tsrSet);
    if (EUSR_NS.equals(namespace) && "EndUserStatisticsReport".equals(name)) return new Kind("eusr", eusrSet);
    if (CII_NS.equals(namespace) && "CrossIndustryInvoice".equals(name)) return new Kind("cii", xrechnung ? xrechnungCiiSet : ciiSet);
    if (UBL_APPLICATION_RESPONSE_NS.equals(namespace) && "ApplicationResponse".equals(name)) {
      String customization = customizationId(root);
      if (customization.startsWith(INVOICE_RESPONSE_CUSTOMIZATION)) return new Kind("invoice_response", invoiceResponseSet);
      if (customization.equals(MLS_CUSTOMIZATION)) return new Kind("mls", mlsSet);
    }
    return null;
  }

  /**
   * The newest PINT rules for a billing document whose CustomizationID is a PINT specialisation this service routes
   * (`urn:peppol:pint:billing-1@eu-1` …), as KoSIT's scenarios route by it; null for any other.
   */
  private IValidationExecutorSet<IValidationSourceXML> pintSet(String customization, boolean invoice) {
    if (!customization.startsWith(PINT_BILLING + "@")) return null;
    String group = PINT_GROUPS.get(customization.substring(PINT_BILLING.length() + 1));
    if (group == null) return null;
    // The groups spell a credit note's artifact two ways ("creditnote", and Japan's "credit-note").
    for (String artifact : invoice ? List.of("invoice") : List.of("creditnote", "credit-note")) {
      var set = registry.getLatestVersion(group, artifact, null);
      if (set != null && !set.getStatus().isDeprecated()) return set;
    }
    return null;
  }

  /** Whether the document claims XRechnung 3.0: its UBL CustomizationID, or its CII guideline (BT-24). */
  private static boolean isXRechnung(Element root) {
    if (customizationId(root).startsWith(XRECHNUNG_CUSTOMIZATION)) return true;
    var guidelines = root.getElementsByTagNameNS(CII_RAM_NS, "GuidelineSpecifiedDocumentContextParameter");
    for (int index = 0; index < guidelines.getLength(); index++) {
      for (var child = guidelines.item(index).getFirstChild(); child != null; child = child.getNextSibling()) {
        if (child instanceof Element element && "ID".equals(element.getLocalName()) && element.getTextContent().trim().startsWith(XRECHNUNG_CUSTOMIZATION)) return true;
      }
    }
    return false;
  }

  /** The ApplicationResponse's own cbc:CustomizationID (a direct child), trimmed; "" when it has none. */
  private static String customizationId(Element root) {
    for (var child = root.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element element && UBL_CBC_NS.equals(element.getNamespaceURI())
          && "CustomizationID".equals(element.getLocalName())) {
        return element.getTextContent().trim();
      }
    }
    return "";
  }

  Report validate(byte[] xml) throws IOException {
    // Parsed once here to choose the executor set by root element and to tell "not XML" and
    // "not UBL" apart from findings; phive then reads the bytes, so XSD findings keep line/column.
    Document doc;
    try {
      doc = parse(xml);
    } catch (SAXParseException e) {
      return new Report(null, null, new Problem("not_well_formed",
          "line " + e.getLineNumber() + ", column " + e.getColumnNumber() + ": " + e.getMessage()), List.of());
    }
    Element root = doc.getDocumentElement();
    Kind kind = kindOf(root);
    if (kind == null) {
      String namespace = root.getNamespaceURI() == null ? "no namespace" : "namespace " + root.getNamespaceURI();
      String what = "ApplicationResponse".equals(root.getLocalName())
          ? "an ApplicationResponse whose CustomizationID is neither an Invoice Response (" + INVOICE_RESPONSE_CUSTOMIZATION
              + ") nor a Message Level Status (" + MLS_CUSTOMIZATION + ")"
          : "neither a UBL 2.1 Invoice nor a CreditNote nor a UN/CEFACT CII CrossIndustryInvoice";
      return new Report(null, null, new Problem("not_ubl", "the root element " + root.getLocalName() + " (" + namespace
          + ") is " + what), List.of());
    }
    String documentType = kind.documentType();
    IValidationExecutorSet<IValidationSourceXML> set = kind.set();

    ValidationResultList results = ValidationExecutionManager.executeValidation(
        IValidityDeterminator.createDefault(), set,
        ValidationSourceXML.create(new ReadableResourceByteArray("document.xml", xml, false)), Locale.ENGLISH);
    List<Finding> findings = new ArrayList<>();
    for (ValidationResult result : results) {
      boolean fromXsd = result.getValidationArtefact().getValidationType().getBaseType().isXSD();
      for (IError error : result.getErrorList()) {
        // A warning with no rule id is the XSLT compiler's about the stylesheet (Saxon on some PINT
        // schematrons), not the document's: it is no finding.
        if (!fromXsd && error.getErrorID() == null && !error.getErrorLevel().isGE(EErrorLevel.ERROR)) continue;
        findings.add(toFinding(error, fromXsd));
      }
    }
    return new Report(documentType, ruleSetId(set), null, findings);
  }

  /**
   * The id a report names: billing keeps the release id it always had ("eu.peppol.bis3:2026.5", which
   * documents store as their rule_set); other kinds name their executor set
   * ("eu.peppol.bis3:invoice-message-response:2026.5", "org.peppol:mls:1", "eu.peppol.reporting:tsr:1.0.5").
   */
  private String ruleSetId(IValidationExecutorSet<IValidationSourceXML> set) {
    return set == invoiceSet || set == creditNoteSet ? ruleSet.id() : set.getID().getAsSingleID();
  }

  private static Finding toFinding(IError error, boolean fromXsd) {
    if (!fromXsd && error.getErrorID() == null) {
      // Every CEN and Peppol assert has an id, so this is the engine failing (no JAXB runtime to
      // read the SVRL, say), not the document: fail the request rather than pass it off as a finding.
      throw new IllegalStateException("schematron step failed: " + error.getAsStringLocaleIndepdent(),
          error.getLinkedException());
    }
    String rule = fromXsd ? SCHEMA_RULE : error.getErrorID();
    // Schematron findings are located by XPath (the SVRL location); XSD findings by line and column
    // alone: the location's resource would name a file on this server.
    String location = error.getErrorFieldName() != null ? error.getErrorFieldName() : lineAndColumn(error);
    String message = error.getErrorText(Locale.ENGLISH);
    return new Finding(rule, error.getErrorLevel().isGE(EErrorLevel.ERROR), message == null ? "" : message, location);
  }

  private static String lineAndColumn(IError error) {
    if (!error.hasErrorLocation() || error.getErrorLocation().getLineNumber() < 0) {
      return "";
    }
    int column = error.getErrorLocation().getColumnNumber();
    return "line " + error.getErrorLocation().getLineNumber() + (column < 0 ? "" : ", column " + column);
  }

  private static Document parse(byte[] xml) throws IOException, SAXParseException {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    try {
      // UBL never needs a DTD; refusing DOCTYPE rules out external entities and entity expansion.
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      // The default handler would also print "[Fatal Error] ..." to stderr; the exception is enough.
      builder.setErrorHandler(new DefaultHandler() {
        @Override
        public void fatalError(SAXParseException e) throws SAXParseException {
          throw e;
        }
      });
      return builder.parse(new ByteArrayInputStream(xml));
    } catch (SAXParseException e) {
      throw e;
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException(e);
    }
  }
}
