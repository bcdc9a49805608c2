import { calculate } from '../../domain/documents/calculate';
import { convertDocument, withCompanyDefaults } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { buildUbl } from '../../domain/ubl/build';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { validateUbl } from '../support/peppol-validator';

// The first run may build the validator jar with Maven.
const TIMEOUT_MS = 600_000;

const base = validFixtures[0]!.body;

/**
 * Documents our own checks refuse, with the rule they name. Each is also
 * written as UBL without those checks, and the official artefacts must flag
 * the same rule: where the two disagree, our checks are wrong.
 */
const refused: { name: string; body: Record<string, unknown>; rule: string }[] = [
  { name: 'no buyer or order reference', body: { ...base, buyer_reference: undefined, order_reference: undefined }, rule: 'PEPPOL-EN16931-R003' },
  {
    name: 'standard rate at 0 %',
    body: { ...base, lines: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 0, tax_category: 'S' }] },
    rule: 'BR-S-05',
  },
  {
    name: 'exempt without a reason',
    body: { ...base, lines: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 0, tax_category: 'E' }] },
    rule: 'BR-E-10',
  },
  {
    name: 'zero rated at 6 %',
    body: { ...base, lines: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 6, tax_category: 'Z' }] },
    rule: 'BR-Z-05',
  },
  {
    name: 'intra-community supply without deliver-to country',
    body: {
      ...base,
      delivery: { date: '2026-11-18' },
      lines: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 0, tax_category: 'K' }],
    },
    rule: 'BR-IC-12',
  },
  {
    name: 'a wrong check digit in the buyer endpoint',
    body: { ...base, to: { ...(base.to as object), peppol_id: '0208:0987654395' } },
    rule: 'PEPPOL-COMMON-R043',
  },
  { name: 'an unknown currency', body: { ...base, currency: 'XYZ' }, rule: 'PEPPOL-EN16931-CL007' },
];

describe('conformance with the official Peppol BIS Billing 3.0 and EN 16931 artefacts', () => {
  it(
    'when every fixture is converted, then the UBL has zero fatal findings',
    async () => {
      const documents = validFixtures.map((fixture) => {
        const result = convertDocument(documentInputSchema.parse(fixture.body), fixture.company);
        if (!result.ok) throw new Error(`${fixture.name} was refused: ${JSON.stringify(result.violations)}`);
        return { name: fixture.name, xml: result.ubl };
      });
      const results = await validateUbl(documents);
      expect(results.map((result) => ({ name: result.name, fatal: result.fatal }))).toEqual(documents.map(({ name }) => ({ name, fatal: [] })));
    },
    TIMEOUT_MS,
  );

  it(
    'when a document breaks a rule, then our checks and the official artefacts name the same rule',
    async () => {
      const forced = refused.map(({ name, body, rule }) => {
        const input = withCompanyDefaults(documentInputSchema.parse(body), belgianSeller);
        const ours = convertDocument(input, belgianSeller);
        expect({ name, ours: ours.ok ? [] : ours.violations.map((violation) => violation.rule) }).toEqual({ name, ours: expect.arrayContaining([rule]) });
        return { name, xml: buildUbl(input, calculate(input)) };
      });
      const results = await validateUbl(forced);
      for (const [index, result] of results.entries()) {
        expect({ name: result.name, official: result.fatal.map((finding) => finding.rule) }).toEqual({
          name: result.name,
          official: expect.arrayContaining([refused[index]!.rule]),
        });
      }
    },
    TIMEOUT_MS,
  );
});
