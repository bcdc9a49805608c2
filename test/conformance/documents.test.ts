import { calculate } from '../../domain/documents/calculate';
import { convertDocument, withCompanyDefaults } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import type { SendingCompany } from '../../domain/documents/convert';
import { termsOfInput } from '../../domain/terms/from-input';
import { writeUbl } from '../../domain/ubl/write';
import {
  belgianSeller,
  danishSeller,
  dutchDomesticCreditNote,
  dutchSeller,
  germanDomesticInvoice,
  germanSeller,
  greekInvoice,
  greekSeller,
  icelandicSeller,
  italianSeller,
  norwegianSeller,
  swedishSeller,
  validFixtures,
} from '../fixtures/documents';
import { validateUbl } from '../support/peppol-validator';

// The first run may build the validator jar with Maven.
const TIMEOUT_MS = 600_000;

const base = validFixtures[0]!.body;
const fixture = (name: string) => validFixtures.find((candidate) => candidate.name.startsWith(name))!.body;
const item = { description: 'x', quantity: 1, unit_price: 10 };
const notSubjectToVat = {
  ...base,
  to: { ...(base.to as object), tax_id: undefined },
  lines: [{ ...item, tax_category: 'O' }],
};
const csv = (filename: string) => ({
  filename,
  mime_type: 'text/csv',
  content: Buffer.from('a;b\n').toString('base64'),
});

/** Each VATEX code Peppol ties to one category, used with another category, and the rule that names it. */
const vatexMismatches: [code: string, category: string, rule: string][] = [
  ['VATEX-EU-G', 'E', 'PEPPOL-EN16931-P0104'],
  ['VATEX-EU-O', 'E', 'PEPPOL-EN16931-P0105'],
  ['VATEX-EU-IC', 'AE', 'PEPPOL-EN16931-P0106'],
  ['VATEX-EU-AE', 'E', 'PEPPOL-EN16931-P0107'],
  ['VATEX-EU-D', 'AE', 'PEPPOL-EN16931-P0108'],
  ['VATEX-EU-F', 'G', 'PEPPOL-EN16931-P0109'],
  ['VATEX-EU-I', 'G', 'PEPPOL-EN16931-P0110'],
  ['vatex-eu-j', 'AE', 'PEPPOL-EN16931-P0111'],
];

/**
 * Documents our own checks refuse, with the rule they name. Each is also
 * written as UBL without those checks, and the official artefacts must flag
 * the same rule: where the two disagree, our checks are wrong.
 */
const refused: { name: string; body: Record<string, unknown>; rule: string; company?: SendingCompany }[] = [
  {
    name: 'no buyer or order reference',
    body: { ...base, buyer_reference: undefined, order_reference: undefined },
    rule: 'PEPPOL-EN16931-R003',
  },
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
  {
    name: 'a standard-rated document allowance at 0 %',
    body: {
      ...base,
      allowances: [{ amount: '1.00', reason: 'Discount', reason_code: '95', tax_rate: 0, tax_category: 'S' }],
    },
    rule: 'BR-S-06',
  },

  // Category O, not subject to VAT
  {
    name: 'category O with a rate',
    body: { ...notSubjectToVat, lines: [{ ...item, tax_rate: 0, tax_category: 'O' }] },
    rule: 'BR-O-05',
  },
  {
    name: 'category O with a document allowance at 0 %',
    body: {
      ...notSubjectToVat,
      allowances: [{ amount: '1.00', reason: 'Discount', reason_code: '95', tax_rate: 0, tax_category: 'O' }],
    },
    rule: 'BR-O-06',
  },
  {
    name: 'category O with the seller VAT id sent in from',
    body: { ...notSubjectToVat, from: { tax_id: 'BE0123456749' } },
    rule: 'BR-O-02',
  },
  { name: 'category O with the buyer VAT id', body: { ...notSubjectToVat, to: base.to }, rule: 'BR-O-02' },
  {
    name: 'category O mixed with a standard-rated line',
    body: {
      ...notSubjectToVat,
      lines: [
        { ...item, tax_category: 'O' },
        { ...item, tax_rate: 21 },
      ],
    },
    rule: 'BR-O-12',
  },
  {
    name: 'category O with a standard-rated charge',
    body: { ...notSubjectToVat, charges: [{ amount: '5.00', reason: 'Freight', reason_code: 'FC', tax_rate: 21 }] },
    rule: 'BR-O-11',
  },

  // VATEX codes
  {
    name: 'an exemption code that is not in the VATEX list',
    body: { ...base, lines: [{ ...item, tax_rate: 0, tax_category: 'E', tax_exemption_reason_code: 'VATEX-EU-999' }] },
    rule: 'BR-CL-22',
  },
  ...vatexMismatches.map(([code, category, rule]) => ({
    name: `${code} with category ${category}`,
    body: {
      ...base,
      delivery: { date: '2026-11-18', country: 'NL' },
      lines: [{ ...item, tax_rate: 0, tax_category: category, tax_exemption_reason_code: code }],
    },
    rule,
  })),

  // Attachments
  {
    name: 'an attachment of a type Peppol does not allow',
    body: { ...base, attachments: [{ ...csv('data.xml'), mime_type: 'application/xml' }] },
    rule: 'BR-CL-24',
  },

  // Country rules of the Peppol schematron
  {
    name: 'NL: a credit note without the invoice it corrects',
    company: dutchSeller,
    body: { ...dutchDomesticCreditNote, invoice_reference: undefined },
    rule: 'NL-R-001',
  },
  {
    name: 'NL: a seller address without street and postal code',
    company: { ...dutchSeller, address: { city: 'Amsterdam' } },
    body: fixture('NL seller: invoice'),
    rule: 'NL-R-002',
  },
  {
    name: 'NL: a seller legal id that is no KvK number',
    company: { ...dutchSeller, company_registration_id: '6922942' },
    body: fixture('NL seller: invoice'),
    rule: 'NL-R-003',
  },
  {
    name: 'NL: a Dutch buyer legal id that is no KvK number',
    company: dutchSeller,
    body: {
      ...fixture('NL seller: invoice'),
      to: { ...(fixture('NL seller: invoice').to as object), company_registration_id: 'KVK-1234' },
    },
    rule: 'NL-R-005',
  },
  {
    name: 'NL: an invoice without payment means',
    company: { ...dutchSeller, iban: null },
    body: { ...fixture('NL seller: invoice'), payment: undefined },
    rule: 'NL-R-007',
  },
  {
    name: 'NL: a domestic payment by debit transfer (31)',
    company: dutchSeller,
    body: { ...fixture('NL seller: invoice'), payment: { means_code: '31', iban: 'NL91ABNA0417164300' } },
    rule: 'NL-R-008',
  },
  {
    name: 'NO: a VAT id without MVA',
    company: { ...norwegianSeller, tax_id: 'NO984009372' },
    body: fixture('NO seller'),
    rule: 'NO-R-001',
  },
  {
    name: 'SE: a standard rate of 21 %',
    company: swedishSeller,
    body: { ...fixture('SE seller'), lines: [{ ...item, tax_rate: 21 }] },
    rule: 'SE-R-006',
  },
  {
    name: 'SE: an organisation number with a wrong check digit',
    company: { ...swedishSeller, company_registration_id: '5591919386' },
    body: fixture('SE seller'),
    rule: 'SE-R-013',
  },
  {
    name: 'DK: a seller without CVR number',
    company: { ...danishSeller, company_registration_id: null },
    body: fixture('DK seller'),
    rule: 'DK-R-002',
  },
  {
    name: 'DK: a domestic invoice paid by credit transfer (30)',
    company: danishSeller,
    body: { ...fixture('DK seller'), payment: { means_code: '30', iban: 'DK5000400440116243' } },
    rule: 'DK-R-005',
  },
  {
    name: 'DK: a domestic credit note with a negative amount due',
    company: danishSeller,
    body: { ...fixture('DK seller'), type: 'credit_note', lines: [{ ...item, quantity: -1, tax_rate: 25 }] },
    rule: 'DK-R-016',
  },
  {
    name: 'DK: a non-VAT tax without its Danish tax category',
    company: danishSeller,
    body: {
      ...fixture('DK seller'),
      charges: [{ amount: '5.00', reason: 'Miljøafgift', reason_code: 'ZZZ', tax_rate: 25 }],
    },
    rule: 'DK-R-004',
  },
  {
    name: 'IT: a seller address without street',
    company: { ...italianSeller, address: { city: 'Milano', postal_code: '20123' } },
    body: fixture('IT seller'),
    rule: 'IT-R-002',
  },
  {
    name: 'DE: a domestic invoice without buyer reference',
    company: germanSeller,
    body: { ...germanDomesticInvoice, buyer_reference: undefined, order_reference: 'PO-77' },
    rule: 'DE-R-015',
  },
  {
    name: 'DE: a domestic invoice without seller contact',
    company: { ...germanSeller, email: null },
    body: { ...germanDomesticInvoice, from: {} },
    rule: 'DE-R-002',
  },
  {
    name: 'DE: a domestic invoice without contact telephone',
    company: germanSeller,
    body: { ...germanDomesticInvoice, from: { contact_name: 'Erika Mustermann' } },
    rule: 'DE-R-006',
  },
  {
    name: 'DE: a domestic invoice without payment instructions',
    company: { ...germanSeller, iban: null },
    body: { ...germanDomesticInvoice, payment: undefined },
    rule: 'DE-R-001',
  },
  {
    name: 'DE: a malformed cash discount',
    company: germanSeller,
    body: { ...germanDomesticInvoice, payment: { terms: '#SKONTO#TAGE=14#PROZENT=2#' } },
    rule: 'DE-R-018',
  },
  {
    name: 'DE: a deliver-to address without city',
    company: germanSeller,
    body: { ...germanDomesticInvoice, delivery: { country: 'DE', postal_code: '80331' } },
    rule: 'DE-R-010',
  },
  {
    name: 'DE: two attachments with one file name',
    company: germanSeller,
    body: { ...germanDomesticInvoice, attachments: [csv('hours.csv'), csv('hours.csv')] },
    rule: 'DE-R-022',
  },
  {
    name: 'GR: an invoice number that is not in the Greek form',
    company: greekSeller,
    body: { ...greekInvoice, number: 'INV-2026-0042' },
    rule: 'GR-R-001-1',
  },
  {
    name: 'GR: an invoice number dated otherwise than the invoice',
    company: greekSeller,
    body: { ...greekInvoice, number: '081926354|2/11/2026|0|1.1|A|42' },
    rule: 'GR-R-001-3',
  },
  {
    name: 'GR: a VAT id with a wrong TIN check digit',
    company: { ...greekSeller, tax_id: 'EL081926355' },
    body: greekInvoice,
    rule: 'GR-R-003',
  },
  { name: 'GR: no MARK', company: greekSeller, body: { ...greekInvoice, greece: undefined }, rule: 'GR-R-004-1' },
  {
    name: 'GR: a seller addressed by GLN instead of TIN',
    company: { ...greekSeller, peppol_id: '0088:5790000435975' },
    body: greekInvoice,
    rule: 'GR-R-009',
  },
  {
    name: 'IS: a seller without kennitala',
    company: { ...icelandicSeller, company_registration_id: null },
    body: fixture('IS seller'),
    rule: 'IS-R-002',
  },
  {
    name: 'IS: a domestic buyer address without street',
    company: icelandicSeller,
    body: {
      ...fixture('IS seller'),
      to: { ...(fixture('IS seller').to as object), address: { city: 'Reykjavík', country: 'IS' } },
    },
    rule: 'IS-R-005',
  },
  {
    name: 'IS: payment to a bank account (42) with an IBAN',
    company: icelandicSeller,
    body: { ...fixture('IS seller'), payment: { means_code: '42', iban: 'IS140159260076545510730339' } },
    rule: 'IS-R-007',
  },
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
      expect(results.map((result) => ({ name: result.name, fatal: result.fatal }))).toEqual(
        documents.map(({ name }) => ({ name, fatal: [] })),
      );
    },
    TIMEOUT_MS,
  );

  it(
    'when a document breaks a rule, then our checks and the official artefacts name the same rule',
    async () => {
      const forced = refused.map(({ name, body, rule, company = belgianSeller }) => {
        const input = withCompanyDefaults(documentInputSchema.parse(body), company);
        const ours = convertDocument(input, company);
        expect({ name, ours: ours.ok ? [] : ours.violations.map((violation) => violation.rule) }).toEqual({
          name,
          ours: expect.arrayContaining([rule]),
        });
        const attachments = (input.attachments ?? []).map((attachment, index) => ({
          ...attachment,
          id: `ATT-${index + 1}`,
        }));
        return { name, xml: writeUbl(termsOfInput(input, calculate(input), attachments)) };
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
