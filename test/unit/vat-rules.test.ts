import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianSeller, validFixtures } from '../fixtures/documents';

const base = validFixtures[0]!.body;
const item = { description: 'x', quantity: 1, unit_price: 10 };
const withoutBuyerVat = { ...(base.to as object), tax_id: undefined };
const notSubjectToVat = { ...base, to: withoutBuyerVat, lines: [{ ...item, tax_category: 'O' }] };

const parse = (body: Record<string, unknown>) => documentInputSchema.parse(body);
const convert = (body: Record<string, unknown>) => convertDocument(parse(body), belgianSeller);
const violationsOf = (body: Record<string, unknown>) => {
  const result = convert(body);
  return result.ok ? [] : result.violations.map((violation) => `${violation.path} ${violation.rule ?? '-'}`);
};
const shapeProblems = (body: unknown) => {
  const parsed = documentInputSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};
const ublOf = (body: Record<string, unknown>) => {
  const result = convert(body);
  if (!result.ok) throw new Error(JSON.stringify(result.violations));
  return result.ubl;
};

describe('category O, not subject to VAT', () => {
  it('when lines, allowances and charges in O have no rate, then the document is accepted and no Percent is written for them', () => {
    const ubl = ublOf({
      ...notSubjectToVat,
      allowances: [{ amount: '5.00', reason: 'Discount', reason_code: '95', tax_category: 'O' }],
      charges: [{ amount: '2.00', reason: 'Freight', reason_code: 'FC', tax_category: 'O' }],
    });
    expect(ubl).not.toContain('<cbc:Percent>');
    expect(ubl).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-O</cbc:TaxExemptionReasonCode>');
  });

  it('when a line in another category has no rate, then the shape is refused naming its tax_rate', () => {
    expect(shapeProblems({ ...base, lines: [{ ...item, tax_category: 'S' }] })).toEqual([
      expect.stringMatching(/^lines\.0\.tax_rate: tax_rate is required/),
    ]);
    expect(shapeProblems({ ...base, lines: [item] })).toEqual([expect.stringMatching(/^lines\.0\.tax_rate: /)]);
    expect(shapeProblems({ ...base, charges: [{ amount: 1, reason: 'x', tax_category: 'Z' }] })).toEqual([
      expect.stringMatching(/^charges\.0\.tax_rate: /),
    ]);
  });

  it('when the rate is missing and another field is wrong too, then both are named at once', () => {
    expect(
      shapeProblems({ ...base, lines: [{ ...item, quantity: 'lots' }] }).map((problem) => problem.split(':')[0]),
    ).toEqual(['lines.0.quantity', 'lines.0.tax_rate']);
  });

  it('when an O item has a rate, even 0, then BR-O-05 (line), BR-O-06 (allowance) or BR-O-07 (charge)', () => {
    expect(
      violationsOf({
        ...notSubjectToVat,
        lines: [{ ...item, tax_rate: 0, tax_category: 'O' }],
        allowances: [{ amount: 1, reason: 'x', tax_rate: 0, tax_category: 'O' }],
        charges: [{ amount: 1, reason: 'y', tax_rate: 0, tax_category: 'O' }],
      }),
    ).toEqual(['lines[0].tax_rate BR-O-05', 'allowances[0].tax_rate BR-O-06', 'charges[0].tax_rate BR-O-07']);
  });

  it('when the sending company has a VAT id, then an O document leaves it out; one sent in from or to is refused (BR-O-02)', () => {
    const result = convert(notSubjectToVat);
    expect(result.ok && result.document.from.tax_id).toBeUndefined();
    expect(ublOf(notSubjectToVat)).not.toContain('PartyTaxScheme');
    expect(violationsOf({ ...notSubjectToVat, from: { tax_id: 'BE0123456749' }, to: base.to })).toEqual([
      'from.tax_id BR-O-02',
      'to.tax_id BR-O-02',
    ]);
  });

  it('when only document allowances are O, then the VAT ids are refused under the allowance rule BR-O-03', () => {
    expect(
      violationsOf({
        ...base,
        lines: [{ ...item, tax_rate: 21 }],
        allowances: [{ amount: 1, reason: 'x', tax_category: 'O' }],
      }),
    ).toEqual([
      'allowances[0].tax_category BR-O-11',
      'lines[0].tax_category BR-O-12',
      'from.tax_id BR-O-03',
      'to.tax_id BR-O-03',
    ]);
  });

  it('when an O document names neither VAT id nor legal id of the seller, then BR-CO-26', () => {
    const result = convertDocument(parse(notSubjectToVat), { ...belgianSeller, company_registration_id: null });
    expect(result.ok ? [] : result.violations.map((violation) => `${violation.path} ${violation.rule}`)).toEqual([
      'from.company_registration_id BR-CO-26',
    ]);
  });

  it('when an O charge joins standard-rated lines, then BR-O-14 names the charge', () => {
    expect(violationsOf({ ...base, charges: [{ amount: 1, reason: 'x', tax_category: 'O' }] })).toEqual(
      expect.arrayContaining(['charges[0].tax_category BR-O-11', 'lines[0].tax_category BR-O-12']),
    );
    expect(violationsOf({ ...notSubjectToVat, charges: [{ amount: 1, reason: 'x', tax_rate: 21 }] })).toEqual(
      expect.arrayContaining(['lines[0].tax_category BR-O-11', 'charges[0].tax_category BR-O-14']),
    );
  });
});

describe('rates per kind of item', () => {
  it('when a document allowance or charge breaks its category’s rate, then the allowance (06) or charge (07) rule is named', () => {
    expect(
      violationsOf({
        ...base,
        allowances: [{ amount: 1, reason: 'x', tax_rate: 0, tax_category: 'S' }],
        charges: [{ amount: 1, reason: 'y', tax_rate: 6, tax_category: 'Z' }],
      }),
    ).toEqual(['allowances[0].tax_rate BR-S-06', 'charges[0].tax_rate BR-Z-07']);
  });

  it('when a rate is negative, then the category’s rate rule is named', () => {
    expect(violationsOf({ ...base, lines: [{ ...item, tax_rate: -7, tax_category: 'L' }] })).toEqual([
      'lines[0].tax_rate BR-AF-05',
    ]);
  });
});

describe('VATEX exemption codes', () => {
  const exempt = (category: string, code: string) => ({
    ...base,
    delivery: { date: '2026-11-18', country: 'NL' },
    lines: [{ ...item, tax_rate: 0, tax_category: category, tax_exemption_reason_code: code }],
  });

  it('when a code is not in the VATEX list, then BR-CL-22', () => {
    expect(violationsOf(exempt('E', 'VATEX-EU-999'))).toEqual(['lines[0].tax_exemption_reason_code BR-CL-22']);
    expect(violationsOf(exempt('E', 'VATEX-XX-132'))).toEqual(['lines[0].tax_exemption_reason_code BR-CL-22']);
  });

  it('when a code of the list is sent in lower case, then it is accepted as the official rules compare upper-cased', () => {
    expect(violationsOf(exempt('E', 'vatex-eu-132-1i'))).toEqual([]);
  });

  it.each([
    ['VATEX-EU-G', 'E', 'PEPPOL-EN16931-P0104'],
    ['VATEX-EU-O', 'E', 'PEPPOL-EN16931-P0105'],
    ['VATEX-EU-IC', 'AE', 'PEPPOL-EN16931-P0106'],
    ['VATEX-EU-AE', 'K', 'PEPPOL-EN16931-P0107'],
    ['VATEX-EU-D', 'G', 'PEPPOL-EN16931-P0108'],
    ['VATEX-EU-F', 'AE', 'PEPPOL-EN16931-P0109'],
    ['VATEX-EU-I', 'G', 'PEPPOL-EN16931-P0110'],
    ['VATEX-EU-J', 'K', 'PEPPOL-EN16931-P0111'],
  ])('when %s is used with category %s, then %s', (code, category, rule) => {
    expect(violationsOf(exempt(category, code))).toEqual([`lines[0].tax_exemption_reason_code ${rule}`]);
  });

  it('when a code tied to a category is used with that category, then it is accepted', () => {
    expect(violationsOf(exempt('E', 'VATEX-EU-F'))).toEqual([]);
    expect(violationsOf(exempt('K', 'VATEX-EU-IC'))).toEqual([]);
  });
});

describe('attachment types', () => {
  const attach = (mime_type: string) => ({
    ...base,
    attachments: [{ filename: 'f', mime_type, content: Buffer.from('<a/>').toString('base64') }],
  });

  it('when an attachment has a type Peppol does not allow, then it is parsed and refused naming BR-CL-24 on its mime_type', () => {
    expect(shapeProblems(attach('application/xml'))).toEqual([]);
    expect(violationsOf(attach('application/xml'))).toEqual(['attachments[0].mime_type BR-CL-24']);
  });

  it('when a type is allowed but the content is not base64, then both problems are named', () => {
    expect(
      violationsOf({ ...base, attachments: [{ filename: 'f', mime_type: 'image/gif', content: 'not base64!' }] }),
    ).toEqual(['attachments[0].mime_type BR-CL-24', 'attachments[0].content -']);
  });
});
