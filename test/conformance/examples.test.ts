import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { validateUbl, type ValidationResult } from '../support/peppol-validator';

/** Replaces exactly one match, so a changed document fails loudly instead of silently testing nothing. */
function replaceOnce(xml: string, pattern: RegExp, replacement: string): string {
  const matches = xml.match(
    new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
  );
  if (matches?.length !== 1) throw new Error(`expected exactly one match of ${pattern}, found ${matches?.length ?? 0}`);
  return xml.replace(pattern, replacement);
}

const rules = (result: ValidationResult | undefined) => result?.fatal.map((finding) => finding.rule) ?? [];

/**
 * UBL the service wrote, then changed behind its back: the official artefacts
 * must catch what no pre-send check of ours can see, so the validator is known
 * to bite (the repository's own documents only; nothing outside it is read).
 */
describe('the official artefacts catch UBL changed after conversion', () => {
  const converted = convertDocument(documentInputSchema.parse(validFixtures[0]!.body), belgianSeller);
  if (!converted.ok) throw new Error('the standard fixture is refused');
  const ubl = converted.ubl;
  // The line says 6 % while the VAT breakdown (and its tax amount) stays at 21 %.
  const lineRateMismatch = replaceOnce(
    ubl,
    /(?<=<cac:ClassifiedTaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>)21(?=<\/cbc:Percent>)/,
    '6',
  );
  // The payable amount no longer follows from the totals.
  const wrongPayable = replaceOnce(
    ubl,
    /(?<=<cbc:PayableAmount currencyID="EUR">)1512\.50(?=<\/cbc:PayableAmount>)/,
    '1500.00',
  );

  let results: ValidationResult[];
  const resultFor = (name: string) => results.find((result) => result.name === name);

  beforeAll(async () => {
    results = await validateUbl([
      { name: 'as converted', xml: ubl },
      { name: 'line VAT rate differs from breakdown', xml: lineRateMismatch },
      { name: 'payable amount changed', xml: wrongPayable },
    ]);
  });

  it('when the UBL is as the service wrote it, then there is no fatal finding', () => {
    expect(resultFor('as converted')?.fatal).toEqual([]);
  });

  it('when a standard-rated line has another rate than the VAT breakdown, then an EN 16931 BR- rule is fatal', () => {
    const result = resultFor('line VAT rate differs from breakdown');
    expect(result?.valid).toBe(false);
    expect(rules(result).some((rule) => rule.startsWith('BR-'))).toBe(true);
  });

  it('when the payable amount no longer follows from the totals, then BR-CO-16 is fatal', () => {
    const result = resultFor('payable amount changed');
    expect(result?.valid).toBe(false);
    expect(rules(result)).toContain('BR-CO-16');
  });
});
