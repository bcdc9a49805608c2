import { documentLines } from '../../domain/rendering-bounds';

/** A rendering is refused past the lines a document may have: its lines are counted whatever their namespace prefix. */
describe('the lines a rendering counts', () => {
  it('when a document has invoice lines, credit note lines or sub-lines, then only the lines count, under any prefix or none', () => {
    const invoice =
      '<Invoice><cac:InvoiceLine><cac:SubInvoiceLine/></cac:InvoiceLine><x:InvoiceLine a="1"/><InvoiceLine/><cac:InvoiceLines/></Invoice>';
    expect(documentLines(invoice)).toBe(3);
    expect(documentLines('<CreditNote><cac:CreditNoteLine>\n</cac:CreditNoteLine><CreditNoteLine/></CreditNote>')).toBe(
      2,
    );
    expect(documentLines('<Invoice/>')).toBe(0);
  });
});
