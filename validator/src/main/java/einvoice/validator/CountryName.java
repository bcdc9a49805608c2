package einvoice.validator;

import java.util.Locale;

import net.sf.saxon.s9api.ExtensionFunction;
import net.sf.saxon.s9api.ItemType;
import net.sf.saxon.s9api.OccurrenceIndicator;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.SequenceType;
import net.sf.saxon.s9api.XdmAtomicValue;
import net.sf.saxon.s9api.XdmEmptySequence;
import net.sf.saxon.s9api.XdmValue;

/**
 * {@code er:country-name($code, $lang)} for the renderings' stylesheets (render/common.xsl): an ISO 3166
 * alpha-2 code's country name in a language, from the JDK's locale data; empty for a code it does not know.
 */
final class CountryName implements ExtensionFunction {
  @Override
  public QName getName() {
    return new QName("urn:einvoice:render", "country-name");
  }

  @Override
  public SequenceType getResultType() {
    return SequenceType.makeSequenceType(ItemType.STRING, OccurrenceIndicator.ZERO_OR_ONE);
  }

  @Override
  public SequenceType[] getArgumentTypes() {
    SequenceType string = SequenceType.makeSequenceType(ItemType.STRING, OccurrenceIndicator.ONE);
    return new SequenceType[] {string, string};
  }

  @Override
  public XdmValue call(XdmValue[] arguments) {
    String code = arguments[0].itemAt(0).getStringValue().toUpperCase(Locale.ROOT);
    Locale language = Locale.forLanguageTag(arguments[1].itemAt(0).getStringValue());
    // The JDK names a code it has no data for by the code itself.
    String name = code.matches("[A-Z]{2}") ? new Locale("", code).getDisplayCountry(language) : code;
    return name.equals(code) ? XdmEmptySequence.getInstance() : new XdmAtomicValue(name);
  }
}
