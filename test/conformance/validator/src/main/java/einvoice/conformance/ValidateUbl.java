package einvoice.conformance;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
import com.helger.io.resource.FileSystemResource;
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
 * Test-only CLI: validates UBL Invoice / CreditNote files against the newest Peppol BIS Billing 3.0
 * executor set (UBL 2.1 XSD, CEN EN 16931 schematron, Peppol schematron) bundled in phive-rules-peppol.
 *
 * <p>Prints one JSON line per input file on stdout; everything else (logs, the executor set used) goes
 * to stderr so the caller can parse stdout line by line. Exit code is 0 whenever every file was
 * processed, valid or not: judging the result is the caller's job.
 */
public final class ValidateUbl {
  private static final String UBL_INVOICE_NS = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  private static final String UBL_CREDIT_NOTE_NS = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
  // VESID coordinates phive-rules-peppol uses for Peppol BIS Billing 3.0 (UBL syntax).
  private static final String BIS3_GROUP = "eu.peppol.bis3";
  private static final String BIS3_INVOICE = "invoice";
  private static final String BIS3_CREDIT_NOTE = "creditnote";
  /** Used for findings that don't come from a schematron assert (parse errors, wrong root, XSD). */
  private static final String SCHEMA_RULE = "XSD";

  private ValidateUbl() {}

  private record Finding(String rule, boolean fatal, String message, String location) {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: java -jar peppol-validator.jar <file.xml> [more files...]");
      System.exit(2);
    }
    // Keep a private handle on the real stdout (explicitly UTF-8, Java 17 would use the platform
    // charset) and point System.out at stderr, so a library that prints to System.out can't corrupt
    // the JSON-lines protocol.
    PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);

    ValidationExecutorSetRegistry<IValidationSourceXML> registry = new ValidationExecutorSetRegistry<>();
    // initStandard registers every Peppol release phive knows (older ones too), so "newest" is
    // resolved below rather than hard-coding a release class that goes stale with each upgrade.
    PeppolValidation.initStandard(registry);
    IValidationExecutorSet<IValidationSourceXML> invoiceSet = newest(registry, BIS3_INVOICE);
    IValidationExecutorSet<IValidationSourceXML> creditNoteSet = newest(registry, BIS3_CREDIT_NOTE);

    for (String arg : args) {
      List<Finding> findings = validate(Path.of(arg), invoiceSet, creditNoteSet);
      json.println(toJson(arg, findings));
    }
    json.flush();
  }

  private static IValidationExecutorSet<IValidationSourceXML> newest(
      ValidationExecutorSetRegistry<IValidationSourceXML> registry, String artifactId) {
    IValidationExecutorSet<IValidationSourceXML> set = registry.getLatestVersion(BIS3_GROUP, artifactId, null);
    if (set == null) {
      throw new IllegalStateException("phive-rules-peppol registered no " + BIS3_GROUP + ":" + artifactId);
    }
    System.err.println("peppol-validator: using executor set " + set.getID().getAsSingleID()
        + " (" + set.getDisplayName() + ", status " + set.getStatus().getType()
        + (set.getStatus().hasValidFrom() ? ", valid from " + set.getStatus().getValidFrom() : "") + ")");
    return set;
  }

  private static List<Finding> validate(Path file,
      IValidationExecutorSet<IValidationSourceXML> invoiceSet,
      IValidationExecutorSet<IValidationSourceXML> creditNoteSet) throws IOException {
    // Parse once ourselves: to choose the executor set by root element, and to report non-XML input
    // as a finding instead of a crash.
    Document doc;
    try {
      doc = parse(file);
    } catch (SAXParseException e) {
      // Not well-formed: no executor set can run, report it like a schema failure.
      return List.of(new Finding(SCHEMA_RULE, true, "XML is not well-formed: " + e.getMessage(),
          file + "(" + e.getLineNumber() + ":" + e.getColumnNumber() + ")"));
    }

    Element root = doc.getDocumentElement();
    IValidationExecutorSet<IValidationSourceXML> set;
    if (UBL_INVOICE_NS.equals(root.getNamespaceURI()) && "Invoice".equals(root.getLocalName())) {
      set = invoiceSet;
    } else if (UBL_CREDIT_NOTE_NS.equals(root.getNamespaceURI()) && "CreditNote".equals(root.getLocalName())) {
      set = creditNoteSet;
    } else {
      return List.of(new Finding(SCHEMA_RULE, true,
          "Root element {" + root.getNamespaceURI() + "}" + root.getLocalName()
              + " is neither a UBL 2.1 Invoice nor CreditNote", "/"));
    }

    // Hand phive the file rather than our DOM: validating the stream lets XSD errors carry line/column.
    ValidationResultList results = ValidationExecutionManager.executeValidation(
        IValidityDeterminator.createDefault(), set, ValidationSourceXML.create(new FileSystemResource(file.toFile())),
        Locale.ENGLISH);

    List<Finding> findings = new ArrayList<>();
    for (ValidationResult result : results) {
      // XSD errors carry no rule id, schematron asserts carry their @id (BR-S-08, PEPPOL-EN16931-R003...).
      boolean fromXsd = result.getValidationArtefact().getValidationType().getBaseType().isXSD();
      for (IError error : result.getErrorList()) {
        findings.add(toFinding(error, fromXsd));
      }
    }
    return findings;
  }

  private static Finding toFinding(IError error, boolean fromXsd) {
    if (!fromXsd && error.getErrorID() == null) {
      // Every CEN/Peppol assert has an id, so this is the engine failing (e.g. no JAXB runtime to read
      // the SVRL), not the document. Crash instead of passing it off as a finding.
      throw new IllegalStateException("schematron step failed: " + error.getAsStringLocaleIndepdent(),
          error.getLinkedException());
    }
    String rule = fromXsd ? SCHEMA_RULE : error.getErrorID();
    // Schematron findings are located by XPath (the SVRL location, kept as the "field name");
    // XSD findings have no XPath, only file/line/column.
    String location = error.getErrorFieldName() != null
        ? error.getErrorFieldName()
        : error.hasErrorLocation() ? error.getErrorLocation().getAsString() : "";
    boolean fatal = error.getErrorLevel().isGE(EErrorLevel.ERROR);
    String message = error.getErrorText(Locale.ENGLISH);
    return new Finding(rule, fatal, message == null ? "" : message, location);
  }

  private static String toJson(String file, List<Finding> findings) {
    boolean valid = findings.stream().noneMatch(Finding::fatal);
    StringBuilder sb = new StringBuilder();
    sb.append("{\"file\":").append(jsonString(file)).append(",\"valid\":").append(valid).append(",\"findings\":[");
    for (int i = 0; i < findings.size(); i++) {
      Finding f = findings.get(i);
      if (i > 0) {
        sb.append(',');
      }
      sb.append("{\"rule\":").append(jsonString(f.rule()))
          .append(",\"severity\":").append(jsonString(f.fatal() ? "fatal" : "warning"))
          .append(",\"message\":").append(jsonString(f.message()))
          .append(",\"location\":").append(jsonString(f.location()))
          .append('}');
    }
    return sb.append("]}").toString();
  }

  private static Document parse(Path file) throws IOException, SAXParseException {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    try {
      // UBL never needs a DTD; refusing DOCTYPE rules out XXE and entity expansion tricks.
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      DocumentBuilder builder = factory.newDocumentBuilder();
      // The default handler also prints "[Fatal Error] ..." to stderr; the exception is enough.
      builder.setErrorHandler(new DefaultHandler() {
        @Override
        public void fatalError(SAXParseException e) throws SAXParseException {
          throw e;
        }
      });
      return builder.parse(file.toFile());
    } catch (SAXParseException e) {
      throw e;
    } catch (ParserConfigurationException | SAXException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Minimal JSON string encoder: avoids pulling a JSON library into the jar for one output format. */
  private static String jsonString(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
