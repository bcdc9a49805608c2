package einvoice.facturxchecker;

import org.mustangproject.validator.ZUGFeRDValidator;

/**
 * Usage: java -jar facturx-checker.jar FILE.pdf. Prints Mustangproject's validation report (XML) of the file
 * and exits 0 when it found the file completely valid (PDF/A-3 and the embedded invoice), 1 otherwise.
 */
public final class Check {
  private Check() {}

  public static void main(String[] args) {
    if (args.length != 1) {
      System.err.println("usage: facturx-checker FILE.pdf");
      System.exit(2);
    }
    ZUGFeRDValidator validator = new ZUGFeRDValidator();
    System.out.println(validator.validate(args[0]));
    System.exit(validator.wasCompletelyValid() ? 0 : 1);
  }
}
