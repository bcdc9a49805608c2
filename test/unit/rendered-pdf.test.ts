import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { hasRenderedPdf, renderedPdfIn, renderingLanguageOf, withRenderedPdf } from '../../domain/ubl/rendered-pdf';
import { parseXml } from '../../domain/xml-tree';
import { belgianSeller, validFixtures } from '../fixtures/documents';

const converted = convertDocument(
  documentInputSchema.parse({
    ...validFixtures[0]!.body,
    attachments: [
      { filename: 'timesheet.csv', mime_type: 'text/csv', content: Buffer.from('a;b\n').toString('base64') },
    ],
  }),
  belgianSeller,
);
if (!converted.ok) throw new Error('the fixture is refused');
const ubl = converted.ubl;
const pdf = Buffer.from('%PDF-1.7\n…\n%%EOF\n');

/** The names of the root's children, in order: UBL fixes that order. */
const childOrder = (xml: string) => parseXml(xml).children.map((child) => child.name);

describe('the rendered PDF embedded as a supporting document', () => {
  it('when embedded, then it follows the supporting documents already there and comes before the seller, in well-formed UBL', () => {
    const embedded = withRenderedPdf(ubl, pdf, 'INV 2026/7');
    const order = childOrder(embedded);
    const references = order.flatMap((name, index) => (name === 'AdditionalDocumentReference' ? [index] : []));
    expect(references).toHaveLength(2);
    expect(order[references[1]! + 1]).toBe('AccountingSupplierParty');
    expect(embedded).toContain(
      `filename="INV_2026_7.pdf">${pdf.toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
    );
    // Nothing else changed: without the inserted lines it is the UBL as it was.
    expect(
      embedded.replace(
        /[ \t]*<cac:AdditionalDocumentReference>\n[ \t]*<cbc:ID>RENDERED-PDF<[\s\S]*?<\/cac:AdditionalDocumentReference>\n/,
        '',
      ),
    ).toBe(ubl);
  });

  it('when asked whether a UBL has it, then only an embedded one counts', () => {
    expect(hasRenderedPdf(ubl)).toBe(false);
    expect(hasRenderedPdf(withRenderedPdf(ubl, pdf, 'INV-1'))).toBe(true);
  });

  it('when the embedded rendering is read back, then it is the same bytes; a UBL without one gives none', () => {
    expect(renderedPdfIn(withRenderedPdf(ubl, pdf, 'INV-1'))).toEqual(pdf);
    expect(renderedPdfIn(ubl)).toBeNull();
  });

  it('when the UBL has no seller, then it refuses rather than put the reference anywhere', () => {
    expect(() => withRenderedPdf('<Invoice/>', pdf, 'INV-1')).toThrow(/no seller/);
  });

  it('when the seller is in a German-speaking country, then the labels are German; elsewhere English', () => {
    expect(['DE', 'AT', 'LI', 'BE', 'CH', undefined].map(renderingLanguageOf)).toEqual([
      'de',
      'de',
      'de',
      'en',
      'en',
      'en',
    ]);
  });
});
