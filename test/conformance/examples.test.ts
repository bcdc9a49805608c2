import { readFileSync } from 'node:fs';
import path from 'node:path';

import { validateUbl, type ValidationResult } from '../support/peppol-validator';

// The first run builds the validator jar with Maven (downloads phive and the Peppol rules).
const FIRST_BUILD_TIMEOUT_MS = 600_000;

const EXAMPLES_DIR = path.resolve(__dirname, '../../../shared/peppol/examples');
const example = (file: string) => readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');

/** Replaces exactly one match, so a changed example fails loudly instead of silently testing nothing. */
function replaceOnce(xml: string, pattern: RegExp, replacement: string): string {
  const matches = xml.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`));
  if (matches?.length !== 1) throw new Error(`expected exactly one match of ${pattern}, found ${matches?.length ?? 0}`);
  return xml.replace(pattern, replacement);
}

const rules = (result: ValidationResult | undefined) => result?.fatal.map((finding) => finding.rule) ?? [];

describe('Peppol BIS Billing 3.0 conformance of the validated examples', () => {
  const invoiceS = example('invoice-S.xml');
  const examples = ['invoice-S.xml', 'invoice-AE.xml', 'creditnote.xml'].map((name) => ({ name, xml: example(name) }));

  // BT-10 buyer reference and BT-13 order reference both gone: PEPPOL-EN16931-R003 requires one of them.
  let withoutReferences = replaceOnce(invoiceS, /\s*<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, '');
  if (withoutReferences.includes('<cac:OrderReference>')) {
    withoutReferences = replaceOnce(withoutReferences, /\s*<cac:OrderReference>[\s\S]*?<\/cac:OrderReference>/, '');
  }
  // The line says 6 % while the VAT breakdown (and its tax amount) stays at 21 %.
  const lineRateMismatch = replaceOnce(
    invoiceS,
    /(?<=<cac:ClassifiedTaxCategory>\s*<cbc:ID>S<\/cbc:ID>\s*<cbc:Percent>)21(?=<\/cbc:Percent>)/,
    '6',
  );

  let results: ValidationResult[];
  const resultFor = (name: string) => results.find((result) => result.name === name);

  // One JVM run for all documents: start-up and loading the schematrons cost more than validating.
  beforeAll(async () => {
    results = await validateUbl([
      ...examples,
      { name: 'without buyer and order reference', xml: withoutReferences },
      { name: 'line VAT rate differs from breakdown', xml: lineRateMismatch },
    ]);
  }, FIRST_BUILD_TIMEOUT_MS);

  it.each(examples.map((document) => document.name))('when %s is validated, then there is no fatal finding', (name) => {
    const result = resultFor(name);
    expect(result).toBeDefined();
    expect(result?.fatal).toEqual([]);
    expect(result?.valid).toBe(true);
  });

  it('when the buyer reference and order reference are removed, then PEPPOL-EN16931-R003 is fatal', () => {
    const result = resultFor('without buyer and order reference');
    expect(result?.valid).toBe(false);
    expect(rules(result)).toContain('PEPPOL-EN16931-R003');
  });

  it('when a standard-rated line has another rate than the VAT breakdown, then an EN 16931 BR- rule is fatal', () => {
    const result = resultFor('line VAT rate differs from breakdown');
    expect(result?.valid).toBe(false);
    expect(rules(result).some((rule) => rule.startsWith('BR-'))).toBe(true);
  });
});
