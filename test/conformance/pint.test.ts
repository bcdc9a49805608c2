import { convertDocument, type SendingCompany } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { billingDeliverable, PINT_AUNZ_SERVICES } from '../../domain/peppol/capabilities';
import { routingOf } from '../../domain/peppol/envelope';
import { readUbl } from '../../domain/ubl/received-reader';
import { PINT_AUNZ_CUSTOMIZATION_ID, PINT_PROFILE_ID } from '../../domain/ubl/xml';
import { australianSeller, belgianSeller, pintInvoice } from '../fixtures/documents';
import { officialExamples } from '../support/official-examples';
import { validateUbl } from '../support/peppol-validator';

/**
 * Peppol International (PINT) billing (issue 41): a document is judged by the
 * PINT rules of the jurisdiction its CustomizationID names (phive-rules-peppol
 * carries them), as KoSIT's scenarios route by it. The documents are the BIS
 * base example claiming each specialisation: the EU one passes PINT EU; the
 * others break their jurisdiction's rules, each finding named by its rule id.
 */

const base = officialExamples('peppol-bis').find(({ name }) => name === 'peppol-bis/base-example.xml')!.xml;
const claiming = (specialisation: string) =>
  base
    .replace(
      /<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/,
      `<cbc:CustomizationID>urn:peppol:pint:billing-1@${specialisation}</cbc:CustomizationID>`,
    )
    .replace(/<cbc:ProfileID>[^<]*<\/cbc:ProfileID>/, '<cbc:ProfileID>urn:peppol:bis:billing</cbc:ProfileID>');

it.each([
  ['eu-1', 'org.peppol.pint.eu:invoice:'],
  ['aunz-1', 'org.peppol.pint.aunz:invoice:'],
  ['sg-1', 'org.peppol.pint.sg:invoice:'],
  ['jp-1', 'org.peppol.pint.jp:invoice:'],
  ['my-1', 'org.peppol.pint.my:invoice:'],
])(
  'when an invoice claims PINT %s, then that jurisdiction’s PINT rules judge it, naming every finding by rule id',
  async (specialisation, ruleSet) => {
    const [result] = await validateUbl([{ name: specialisation, xml: claiming(specialisation) }]);
    expect(result?.ruleSet).toMatch(new RegExp(`^${ruleSet.replace(/\./g, '\\.')}`));
    if (specialisation === 'eu-1') expect(result?.fatal).toEqual([]);
    for (const finding of [...(result?.fatal ?? []), ...(result?.warnings ?? [])])
      expect(finding.rule).toMatch(/^[A-Za-z][\w.-]*$/);
  },
);

function converted(body: Record<string, unknown>, company: SendingCompany = australianSeller) {
  return convertDocument(documentInputSchema.parse({ ...body, company_id: 'com_x' }), company);
}

function pintUbl(body: Record<string, unknown>) {
  const result = converted(body);
  if (!result.ok) throw new Error(JSON.stringify(result.violations));
  return result.ubl;
}

describe('sending PINT A-NZ', () => {
  const invoice = pintUbl(pintInvoice);
  const creditNote = pintUbl({
    ...pintInvoice,
    type: 'credit_note',
    number: 'CN-2026-0007',
    invoice_reference: { number: 'INV-2026-0042', issue_date: '2026-11-20' },
  });

  it('when an Australian company sends a document with profile pint, then it is written as PINT A-NZ (its identifiers, GST, ABNs) and the PINT A-NZ rules pass it, invoice and credit note', async () => {
    expect(invoice).toContain(`<cbc:CustomizationID>${PINT_AUNZ_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
    expect(invoice).toContain(`<cbc:ProfileID>${PINT_PROFILE_ID}</cbc:ProfileID>`);
    expect(invoice).toMatch(/<cac:TaxScheme>\s*<cbc:ID>GST<\/cbc:ID>/);
    expect(invoice).not.toMatch(/<cbc:ID>VAT<\/cbc:ID>/);
    expect(invoice).toContain('<cbc:CompanyID schemeID="0151">51824753556</cbc:CompanyID>');
    const results = await validateUbl([
      { name: 'PINT A-NZ invoice', xml: invoice },
      { name: 'PINT A-NZ credit note', xml: creditNote },
    ]);
    expect(results.map((result) => result.ruleSet)).toEqual([
      expect.stringMatching(/^org\.peppol\.pint\.aunz:invoice:/),
      expect.stringMatching(/^org\.peppol\.pint\.aunz:credit-?note:/),
    ]);
    for (const result of results) expect(result).toMatchObject({ valid: true, fatal: [] });
  });

  it('when it is routed, then it goes as the PINT A-NZ document type under the PINT process, and the receiver is looked up for that', () => {
    const routing = routingOf(invoice);
    expect(routing.documentType).toEqual(PINT_AUNZ_SERVICES.invoice.documentType);
    expect(routing.process.value).toBe(PINT_PROFILE_ID);
    expect(billingDeliverable(routing)).toBe(PINT_AUNZ_SERVICES.invoice);
    expect(billingDeliverable(routingOf(creditNote))).toBe(PINT_AUNZ_SERVICES.credit_note);
  });

  it('when a PINT document is read back, then its JSON view says profile pint and posting it gives the same UBL', () => {
    const read = readUbl(invoice);
    if ('unsupported' in read) throw new Error(read.unsupported);
    expect(read.document.profile).toBe('pint');
    expect(read.unmapped).toEqual([]);
    expect(pintUbl({ ...read.document })).toBe(invoice);
  });

  it('when a seller outside Australia and New Zealand asks for pint, then it is refused naming the profile', () => {
    const result = converted(
      { ...pintInvoice, currency: 'EUR', lines: [{ ...pintInvoice.lines[0], tax_rate: 21 }] },
      belgianSeller,
    );
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.violations).toContainEqual(
        expect.objectContaining({
          path: 'profile',
          message: expect.stringMatching(/Australia or New Zealand; this seller is in BE/),
        }),
      );
  });
});
