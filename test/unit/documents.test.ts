import { calculate, formatAmount } from '../../domain/documents/calculate';
import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { PAYABLE_ROUNDING_RULE, payableRoundingViolations } from '../../domain/documents/rules';
import { belgianSeller, validFixtures } from '../fixtures/documents';

const parse = (body: Record<string, unknown>) => documentInputSchema.parse(body);
const fixture = (name: string) => validFixtures.find((candidate) => candidate.name.startsWith(name))!;

describe('document calculation', () => {
  it('when 12.5 hours at 100.00 carry 21 % VAT, then the totals are those of the validated example', () => {
    const { totals, taxGroups } = calculate(parse(fixture('standard rate S').body));
    expect(formatAmount(totals.lineExtension)).toBe('1250.00');
    expect(formatAmount(totals.tax)).toBe('262.50');
    expect(formatAmount(totals.payable)).toBe('1512.50');
    expect(taxGroups.map((group) => [group.category, group.rate])).toEqual([['S', '21']]);
  });

  it('when lines, allowances and charges mix rates, then each (category, rate) is taxed once on its summed taxable amount', () => {
    const { lines, taxGroups, totals } = calculate(parse(fixture('several S rates').body));
    // 3 × 19.999 = 59.997 → 60.00 (+2.50 charge); 2 × 12.34 = 24.68; 1250.00 − 25.00 allowance.
    expect(lines.map((line) => formatAmount(line.net))).toEqual(['1225.00', '62.50', '24.68']);
    const byRate = Object.fromEntries(
      taxGroups.map((group) => [group.rate, [formatAmount(group.taxable), formatAmount(group.tax)]]),
    );
    // 6 % and 6.0 % are one group: 62.50 + 24.68 = 87.18 → 5.2308 → 5.23.
    expect(byRate).toEqual({ '21': ['1230.00', '258.30'], '6': ['87.18', '5.23'] });
    expect(formatAmount(totals.taxExclusive)).toBe('1317.18');
    expect(formatAmount(totals.taxInclusive)).toBe('1580.71');
    expect(formatAmount(totals.payable)).toBe('1480.71');
  });

  it('when a rounding amount is given, then the amount due includes it (BR-CO-16) and the UBL states it', () => {
    const body = fixture('a payable rounding amount').body;
    const { totals } = calculate(parse(body));
    // 12.5 × 99.99 = 1249.875 → 1249.88; + 21 % = 262.47 → 1512.35; − 0.02 = 1512.33.
    expect([formatAmount(totals.taxInclusive), formatAmount(totals.rounding), formatAmount(totals.payable)]).toEqual([
      '1512.35',
      '-0.02',
      '1512.33',
    ]);
    const converted = convertDocument(parse(body), belgianSeller);
    expect(converted.ok && converted.ubl).toContain(
      '<cbc:PayableRoundingAmount currencyID="EUR">-0.02</cbc:PayableRoundingAmount>',
    );
  });

  it('when a half cent is rounded, then it goes away from zero, also for negative amounts', () => {
    const positive = calculate(
      parse({
        ...fixture('standard rate S').body,
        lines: [{ description: 'x', quantity: 1, unit_price: '0.005', tax_rate: 21 }],
      }),
    );
    const negative = calculate(
      parse({
        ...fixture('standard rate S').body,
        lines: [{ description: 'x', quantity: -1, unit_price: '0.005', tax_rate: 21 }],
      }),
    );
    expect(formatAmount(positive.lines[0]!.net)).toBe('0.01');
    expect(formatAmount(negative.lines[0]!.net)).toBe('-0.01');
  });

  it('when amounts are binary-unfriendly, then the arithmetic stays exact', () => {
    const { totals } = calculate(
      parse({
        ...fixture('standard rate S').body,
        lines: [{ description: 'x', quantity: 3, unit_price: 0.1, tax_rate: 10 }],
      }),
    );
    expect(formatAmount(totals.lineExtension)).toBe('0.30');
    expect(formatAmount(totals.tax)).toBe('0.03');
  });
});

describe('pre-send checks', () => {
  const convert = (body: Record<string, unknown>, company = belgianSeller) => convertDocument(parse(body), company);
  const violationsOf = (body: Record<string, unknown>, company = belgianSeller) => {
    const result = convert(body, company);
    return result.ok ? [] : result.violations.map((violation) => `${violation.path} ${violation.rule ?? '-'}`);
  };
  const base = fixture('standard rate S').body;

  it.each(validFixtures.map((candidate) => [candidate.name, candidate] as const))(
    '%s converts without violations',
    (_name, candidate) => {
      const result = convertDocument(parse(candidate.body), candidate.company);
      expect(result.ok ? [] : result.violations).toEqual([]);
    },
  );

  it('when direct debit (49 or 59) has no mandate reference, then PEPPOL-EN16931-R061 names it; a mandate alone means 59', () => {
    const payment = (extra: Record<string, unknown>) => ({
      ...base,
      payment: { ...(base.payment as object), ...extra },
    });
    expect(violationsOf(payment({ means_code: '59' }))).toEqual(['payment.mandate_reference PEPPOL-EN16931-R061']);
    expect(violationsOf(payment({ means_code: '49' }))).toEqual(['payment.mandate_reference PEPPOL-EN16931-R061']);
    const mandateAlone = convert(
      payment({ mandate_reference: 'M-1', debited_account: 'BE68539007547034', creditor_id: 'BE69ZZZ0123456789' }),
    );
    expect(mandateAlone.ok && mandateAlone.ubl).toMatch(
      /<cbc:PaymentMeansCode>59<\/cbc:PaymentMeansCode>[\s\S]*<cac:PaymentMandate>\s*<cbc:ID>M-1<\/cbc:ID>\s*<cac:PayerFinancialAccount>\s*<cbc:ID>BE68539007547034<\/cbc:ID>/,
    );
    expect(mandateAlone.ok && mandateAlone.ubl).toMatch(
      /<cac:PartyIdentification>\s*<cbc:ID schemeID="SEPA">BE69ZZZ0123456789<\/cbc:ID>/,
    );
  });

  it('when an allowance or charge says why only by code, then it is taken; saying nothing is BR-33, BR-38, BR-42 or BR-44', () => {
    const withCodeOnly = {
      ...base,
      allowances: [{ amount: '5', reason_code: '95', tax_rate: 21 }],
      charges: [{ amount: '5', reason_code: 'FC', tax_rate: 21 }],
    };
    expect(violationsOf(withCodeOnly)).toEqual([]);
    const line = (base.lines as Record<string, unknown>[])[0]!;
    const silent = {
      ...base,
      lines: [{ ...line, allowances: [{ amount: '1' }], charges: [{ amount: '1' }] }],
      allowances: [{ amount: '5', tax_rate: 21 }],
      charges: [{ amount: '5', tax_rate: 21 }],
    };
    expect(violationsOf(silent)).toEqual([
      'lines[0].allowances[0].reason BR-42',
      'lines[0].charges[0].reason BR-44',
      'allowances[0].reason BR-33',
      'charges[0].reason BR-38',
    ]);
  });

  it('when a document-level allowance and charge are 0, then their totals are still written (BR-CO-11, BR-CO-12)', () => {
    const converted = convert(fixture('a document-level allowance and a charge of 0').body);
    expect(converted.ok && converted.ubl).toContain(
      '<cbc:AllowanceTotalAmount currencyID="EUR">0.00</cbc:AllowanceTotalAmount>',
    );
    expect(converted.ok && converted.ubl).toContain(
      '<cbc:ChargeTotalAmount currencyID="EUR">0.00</cbc:ChargeTotalAmount>',
    );
  });

  it('when the payable rounding amount (BT-114) is one currency unit or more either way, then our rule EINVOICE-BT114 names the field; below one it is taken', () => {
    const rounding = (amount: string) => ({
      ...base,
      payment: { ...(base.payment as object), rounding_amount: amount },
    });
    for (const taken of ['0.99', '-0.99', '0.5', '-0.02', '0']) expect(violationsOf(rounding(taken))).toEqual([]);
    for (const refused of ['1', '-1', '1.00', '-1.01', '250'])
      expect(violationsOf(rounding(refused))).toEqual(['payment.rounding_amount EINVOICE-BT114']);
    const refusal = convert(rounding('-1.50'));
    expect(!refusal.ok && refusal.violations[0]!.message).toBe(
      'The payable rounding amount (BT-114) is -1.50; it only rounds the amount due, so it is less than 1 (one unit of the currency) either way.',
    );
  });

  it('when a UBL document states its payable rounding, then the same rule names the UBL element', () => {
    const element = 'cac:LegalMonetaryTotal/cbc:PayableRoundingAmount';
    expect(payableRoundingViolations('0.99', element)).toEqual([]);
    expect(payableRoundingViolations(null, element)).toEqual([]);
    expect(payableRoundingViolations('-1.00', element)).toEqual([
      expect.objectContaining({ path: element, rule: PAYABLE_ROUNDING_RULE }),
    ]);
  });

  it('when neither buyer_reference nor order_reference is sent, then PEPPOL-EN16931-R003', () => {
    expect(violationsOf({ ...base, buyer_reference: undefined, order_reference: undefined })).toEqual([
      'buyer_reference PEPPOL-EN16931-R003',
    ]);
  });

  it('when a zero rate has no category, then a clear violation asks for one', () => {
    const result = convert({ ...base, lines: [{ description: 'x', quantity: 1, unit_price: 1, tax_rate: 0 }] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations[0]).toMatchObject({
      path: 'lines[0].tax_category',
      message: expect.stringContaining('ambiguous'),
    });
  });

  it('when several rules break, then every violation is listed with its path and rule id', () => {
    expect(
      violationsOf({
        ...base,
        currency: 'XXX',
        to: { ...(base.to as object), peppol_id: '0208:0987654395', address: undefined },
        lines: [
          { description: 'a', quantity: 1, unit_price: -1, tax_rate: 21, unit: 'PCE' },
          { description: 'b', quantity: 1, unit_price: 1, tax_rate: 0, tax_category: 'S' },
          { description: 'c', quantity: 1, unit_price: 1, tax_rate: 0, tax_category: 'E' },
          { description: 'd', quantity: 1, unit_price: 1, tax_rate: 21, tax_category: 'S', tax_exemption_reason: 'no' },
          {
            description: 'e',
            quantity: 1,
            unit_price: 1,
            tax_rate: 0,
            tax_category: 'AE',
            tax_exemption_reason_code: 'VATEX-EU-G',
          },
        ],
      }),
    ).toEqual(
      expect.arrayContaining([
        'currency PEPPOL-EN16931-CL007',
        'to.address.country BR-11',
        'to.peppol_id PEPPOL-COMMON-R043',
        'lines[0].unit_price BR-27',
        'lines[0].unit BR-CL-23',
        'lines[1].tax_rate BR-S-05',
        'lines[2].tax_exemption_reason_code BR-E-10',
        'lines[3].tax_exemption_reason BR-S-10',
        'lines[4].tax_exemption_reason_code PEPPOL-EN16931-P0104',
      ]),
    );
  });

  it('when category K lacks the buyer VAT id and delivery data, then BR-IC-02, BR-IC-11 and BR-IC-12', () => {
    expect(
      violationsOf({
        ...base,
        to: { ...(base.to as object), tax_id: undefined },
        lines: [{ description: 'x', quantity: 1, unit_price: 1, tax_rate: 0, tax_category: 'K' }],
      }),
    ).toEqual(['to.tax_id BR-IC-02', 'delivery.date BR-IC-11', 'delivery.country BR-IC-12']);
  });

  it('when O is mixed with another category, then BR-O-11 on the O item and BR-O-12 on the other line', () => {
    expect(
      violationsOf({
        ...base,
        lines: [
          { description: 'x', quantity: 1, unit_price: 1, tax_category: 'O' },
          { description: 'y', quantity: 1, unit_price: 1, tax_rate: 21 },
        ],
      }),
    ).toEqual(expect.arrayContaining(['lines[0].tax_category BR-O-11', 'lines[1].tax_category BR-O-12']));
  });

  it('when an attachment is not what it claims, is not base64 or is empty, then it is refused naming the attachment', () => {
    const attach = (mime_type: string, content: string) => ({
      ...base,
      attachments: [{ filename: 'f', mime_type, content }],
    });
    const pdf = Buffer.from('%PDF-1.7 minimal').toString('base64');
    expect(violationsOf(attach('application/pdf', pdf))).toEqual([]);
    expect(violationsOf(attach('image/png', pdf))).toEqual(['attachments[0].mime_type PEPPOL-EN16931-CL001']);
    expect(violationsOf(attach('text/csv', Buffer.from([0x00, 0xff, 0x10]).toString('base64')))).toEqual([
      'attachments[0].mime_type PEPPOL-EN16931-CL001',
    ]);
    expect(violationsOf(attach('text/csv', 'not base64!'))).toEqual(['attachments[0].content -']);
    expect(violationsOf(attach('text/csv', '===='))).toEqual(['attachments[0].content -']);
  });

  it('when the sending company has no Peppol id and from has none, then PEPPOL-EN16931-R020', () => {
    expect(violationsOf(base, { ...belgianSeller, peppol_id: null })).toEqual(['from.peppol_id PEPPOL-EN16931-R020']);
  });

  it('when from leaves fields out, then the company fills them', () => {
    const result = convert(base);
    expect(result.ok && result.document.from).toMatchObject({
      name: 'Example Seller SRL',
      tax_id: 'BE0123456749',
      peppol_id: '0208:0123456749',
      address: { country: 'BE' },
    });
    expect(result.ok && result.document.payment?.iban).toBe('BE68539007547034');
  });

  it('when the UBL is written, then it has the BIS identifiers, escaped text and no empty elements', () => {
    const result = convert(fixture('a Swedish buyer').body);
    expect(result.ok).toBe(true);
    const ubl = result.ok ? result.ubl : '';
    expect(ubl).toContain(
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>',
    );
    expect(ubl).toContain('<cbc:EndpointID schemeID="0007">5560360793</cbc:EndpointID>');
    expect(ubl).toContain('Fish &amp; chips &lt;lunch&gt;');
    expect(ubl).not.toMatch(/<[\w:]+(\s[^>]*)?>\s*<\/[\w:]+>|<[\w:]+(\s[^>]*)?\/>/);
  });
});
