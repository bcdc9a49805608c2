package einvoice.validator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import com.helger.phive.peppol.PeppolValidation;
import com.helger.phive.xml.source.IValidationSourceXML;
import com.helger.phive.xml.source.ValidationSourceXML;

/**
 * The newest Peppol BIS Billing 3.0 rule set phive-rules-peppol carries (UBL 2.1 XSD, CEN EN 16931
 * schematron, Peppol schematron with the national rules), one executor set per root element.
 * Executor sets are read-only once built, so one instance serves every request thread.
 */
final class OfficialRules {
  private static final String UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  private static final String UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
  // The coordinates phive-rules-peppol registers Peppol BIS Billing 3.0 (UBL syntax) under.
  private static final String BIS3_GROUP = "eu.peppol.bis3";
  /** Findings the XSD step reports carry no rule id of their own. */
  private static final String SCHEMA_RULE = "UBL-XSD";

  record Finding(String rule, boolean fatal, String message, String location) {}

  /** Why a body could not be validated at all; null when it was. */
  record Problem(String code, String message) {}

  record Report(String documentType, Problem problem, List<Finding> findings) {
    boolean valid() {
      return problem == null && findings.stream().noneMatch(Finding::fatal);
    }
  }

  /** The release both executor sets belong to, e.g. id "eu.peppol.bis3:2026.5". */
  record RuleSet(String id, String name, String validFrom) {}

  private final IValidationExecutorSet<IValidationSourceXML> invoiceSet;
  private final IValidationExecutorSet<IValidationSourceXML> creditNoteSet;
  private final RuleSet ruleSet;

  OfficialRules() {
    ValidationExecutorSetRegistry<IValidationSourceXML> registry = new ValidationExecutorSetRegistry<>();
    // Registers every release phive knows; "newest" is resolved here rather than naming a release
    // class that goes stale with each upgrade of phive-rules-peppol.
    PeppolValidation.initStandard(registry);
    invoiceSet = newest(registry, "invoice");
    creditNoteSet = newest(registry, "creditnote");
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

  private static IValidationExecutorSet<IValidationSourceXML> newest(
      ValidationExecutorSetRegistry<IValidationSourceXML> registry, String artifactId) {
    IValidationExecutorSet<IValidationSourceXML> set = registry.getLatestVersion(BIS3_GROUP, artifactId, null);
    if (set == null) {
      throw new IllegalStateException("phive-rules-peppol registered no " + BIS3_GROUP + ":" + artifactId);
    }
    return set;
  }

  Report validate(byte[] xml) throws IOException {
    // Parsed once here to choose the executor set by root element and to tell "not XML" and
    // "not UBL" apart from findings; phive then reads the bytes, so XSD findings keep line/column.
    Document doc;
    try {
      doc = parse(xml);
    } catch (SAXParseException e) {
      return new Report(null, new Problem("not_well_formed",
          "line " + e.getLineNumber() + ", column " + e.getColumnNumber() + ": " + e.getMessage()), List.of());
    }
    Element root = doc.getDocumentElement();
    String documentType;
    IValidationExecutorSet<IValidationSourceXML> set;
    if (UBL_INVOICE_NS.equals(root.getNamespaceURI()) && "Invoice".equals(root.getLocalName())) {
      documentType = "invoice";
      set = invoiceSet;
    } else if (UBL_CREDIT_NOTE_NS.equals(root.getNamespaceURI()) && "CreditNote".equals(root.getLocalName())) {
      documentType = "credit_note";
      set = creditNoteSet;
    } else {
      String namespace = root.getNamespaceURI() == null ? "no namespace" : "namespace " + root.getNamespaceURI();
      return new Report(null, new Problem("not_ubl", "the root element " + root.getLocalName() + " (" + namespace
          + ") is neither a UBL 2.1 Invoice nor a CreditNote"), List.of());
    }

    ValidationResultList results = ValidationExecutionManager.executeValidation(
        IValidityDeterminator.createDefault(), set,
        ValidationSourceXML.create(new ReadableResourceByteArray("document.xml", xml, false)), Locale.ENGLISH);
    List<Finding> findings = new ArrayList<>();
    for (ValidationResult result : results) {
      boolean fromXsd = result.getValidationArtefact().getValidationType().getBaseType().isXSD();
      for (IError error : result.getErrorList()) {
        findings.add(toFinding(error, fromXsd));
      }
    }
    return new Report(documentType, null, findings);
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
