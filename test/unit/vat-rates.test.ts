import Decimal from 'decimal.js';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { judgeStandardRate, unusualRateWarnings } from '../../domain/documents/vat-rates';
import table from '../../domain/data/vat-rates.json';
import peppolCountries from '../../domain/data/peppol-countries.json';
import { belgianSeller, validFixtures } from '../fixtures/documents';

const base = validFixtures[0]!.body;
const line = (tax_rate: number | string, extra: Record<string, unknown> = {}) => ({
  description: 'x',
  quantity: 1,
  unit_price: 10,
  tax_rate,
  ...extra,
});
const convert = (body: Record<string, unknown>) => convertDocument(documentInputSchema.parse(body), belgianSeller);
const refusals = (body: Record<string, unknown>) => {
  const result = convert(body);
  return result.ok ? [] : result.violations;
};
const judge = (rate: string, country = 'BE') => judgeStandardRate(new Decimal(rate), country);

describe('the rate table', () => {
  it('when it is read, then it names its source and date and covers the EU-27 and every non-EU Peppol country it claims', () => {
    expect(table.source).toMatch(/European Commission/);
    expect(table.as_of).toMatch(/^\d{4}-\d{2}$/);
    const eu = [
      'AT',
      'BE',
      'BG',
      'CY',
      'CZ',
      'DE',
      'DK',
      'EE',
      'GR',
      'ES',
      'FI',
      'FR',
      'HR',
      'HU',
      'IE',
      'IT',
      'LT',
      'LU',
      'LV',
      'MT',
      'NL',
      'PL',
      'PT',
      'RO',
      'SE',
      'SI',
      'SK',
    ];
    expect(Object.keys(table.countries)).toEqual(expect.arrayContaining(eu));
    // Every country the table has outside the EU is one the service accepts.
    for (const country of Object.keys(table.countries).filter((code) => !eu.includes(code)))
      expect(peppolCountries.countries).toContain(country);
  });

  it('when the 2025 and 2026 changes are looked up, then the table has them', () => {
    expect(table.countries.EE.standard).toBe('24');
    expect(table.countries.SK).toMatchObject({ standard: '23', reduced: ['19', '5'] });
    expect(table.countries.FI.standard).toBe('25.5');
    expect(table.countries.RO).toMatchObject({ standard: '21', reduced: ['11'] });
  });
});

describe('a standard rate judged', () => {
  it("when the rate is one of the seller's country, then it is usual", () => {
    expect(judge('21')).toEqual({ kind: 'usual' });
    expect(judge('6.00')).toEqual({ kind: 'usual' });
    expect(judge('25.5', 'FI')).toEqual({ kind: 'usual' });
  });

  it('when the rate is a fraction of a real one, then it is refused saying what it means', () => {
    expect(judge('0.21')).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^0\.21 looks like a fraction: .*21 means 21 %; send 21\.$/),
    });
  });

  it('when the rate is a multiplier or the gross as a percentage, then it is refused naming the rate meant', () => {
    expect(judge('1.21')).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^1\.21 looks like a multiplier .*send 21\.$/),
    });
    expect(judge('121')).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^121 looks like the gross as a percentage of the net.*send 21\.$/),
    });
  });

  it("when no country uses the rate, then it is refused with the seller's country's rates, and above the highest with that one", () => {
    expect(judge('22.5')).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^No country uses a VAT rate of 22\.5 %.*\(BE\) uses 21, 12, 6\.$/),
    });
    expect(judge('30')).toEqual({
      kind: 'refused',
      message: expect.stringMatching(/^No country uses a VAT rate above 27 % \(HU\)/),
    });
  });

  it("when another country uses the rate but not the seller's, then it is unusual, naming who does", () => {
    expect(judge('19')).toEqual({
      kind: 'unusual',
      message: expect.stringMatching(/^BE does not use a VAT rate of 19 % .*used in .*DE/),
    });
  });

  it('when the seller is in a country the table does not cover, then a rate some country uses is usual', () => {
    expect(judge('19', 'MY')).toEqual({ kind: 'usual' });
    expect(judge('0.21', 'MY').kind).toBe('refused');
  });
});

describe('rates in a document', () => {
  it('when lines, allowances and charges are standard rated at an impossible rate, then each is refused naming its path and no rule', () => {
    const violations = refusals({
      ...base,
      lines: [line('0.21')],
      allowances: [{ amount: 1, reason: 'x', tax_rate: 121 }],
      charges: [{ amount: 1, reason: 'y', tax_rate: '1.21', tax_category: 'S' }],
    });
    expect(violations.map(({ path, rule }) => `${path} ${rule}`)).toEqual([
      'lines[0].tax_rate null',
      'allowances[0].tax_rate null',
      'charges[0].tax_rate null',
    ]);
  });

  it('when a rate is unusual for the seller, then the document converts with one warning per rate at its first item', () => {
    const body = { ...base, lines: [line(19), line(21), line(19)], charges: [{ amount: 1, reason: 'y', tax_rate: 7 }] };
    expect(convert(body).ok).toBe(true);
    const document = documentInputSchema.parse({ ...body, from: { address: { country: 'BE' } } });
    expect(unusualRateWarnings(document)).toEqual([
      { code: 'vat_rate_unusual', path: 'lines[0].tax_rate', message: expect.stringContaining('19 %') },
      { code: 'vat_rate_unusual', path: 'charges[0].tax_rate', message: expect.stringContaining('7 %') },
    ]);
  });

  it('when items are in another category, then their rate is not judged here', () => {
    const document = documentInputSchema.parse({
      ...base,
      from: { address: { country: 'BE' } },
      lines: [line(0, { tax_category: 'Z' }), line(19, { tax_category: 'L' })],
    });
    expect(unusualRateWarnings(document)).toEqual([]);
  });
});
