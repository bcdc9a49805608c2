import { z } from 'zod';

import { emailAddress, xmlText as text } from '../fields';
import { termsDescription } from '../terms/table';
import { isXmlSafe, XML_UNSAFE_MESSAGE } from '../text';

/**
 * The JSON document a client posts: the contract's field names, parsed once at
 * the edge into typed values. Numbers may be JSON numbers or decimal strings;
 * both are turned into exact decimal strings here, so no amount is ever a
 * binary float past this point.
 */

/**
 * At most 15 digits before the point and 10 after: bounded, so no input can
 * make the exact arithmetic expensive, and no exponent form, whose meaning
 * differs between readers (`1e21`).
 */
const DECIMAL_PATTERN = /^-?\d{1,15}(\.\d{1,10})?$/;
const DECIMAL_MESSAGE =
  'expected a decimal number such as 12.50: at most 15 digits before the point and 10 after, no exponent';

/**
 * A JSON number or a decimal string, kept as the exact decimal string it
 * denotes. A JSON number is taken in its shortest round-trip form (0.1 is
 * "0.1"); one that needs an exponent there must be sent as a string.
 */
const decimal = (description: string) =>
  z
    .union([z.number().finite().transform(String), z.string().trim()])
    .pipe(z.string().regex(DECIMAL_PATTERN, DECIMAL_MESSAGE))
    .meta({ description, examples: ['12.50'] });

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'not a calendar date',
  );
const countryCode = z.string().regex(/^([A-Z]{2}|1A)$/, 'expected an ISO 3166-1 alpha-2 country code such as BE');

/**
 * How large one document may be. Converting costs about 25 µs per UBL
 * element (xmlbuilder2), so these keep the largest document's conversion to
 * well under a second and its UBL far below what one stored row can hold;
 * a larger invoice is split into several. Each refusal names the limit.
 */
export const DOCUMENT_LIMITS = {
  lines: 1_000,
  /** Allowances, and charges, on one line. */
  perLineAllowancesOrCharges: 10,
  /** Line allowances and charges of the whole document together. */
  lineAllowancesAndCharges: 2_000,
  /** Document-level allowances, and charges. */
  documentAllowancesOrCharges: 50,
  attachments: 10,
} as const;

/**
 * A field that carries EN 16931 terms, described by the term table: the terms posted at `paths` (their BT ids and
 * names), then `note`. A unit test holds every term the table posts to a field described so.
 */
const carrying = <T extends z.ZodType>(schema: T, paths: readonly string[], note?: string): T =>
  schema.meta({ description: termsDescription(paths, note) });
const ofParties = (field: string) => [`from.${field}`, `to.${field}`];
const ofAllowancesAndCharges = (field: string) =>
  ['allowances[]', 'charges[]', 'lines[].allowances[]', 'lines[].charges[]'].map((at) => `${at}.${field}`);

const atMost = (limit: number, what: string) =>
  `at most ${limit.toLocaleString('en')} ${what} (this service's limit for one document)`;

const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

const address = z
  .object({
    street: carrying(text(200).optional(), ofParties('address.street')),
    city: carrying(text(100).optional(), ofParties('address.city')),
    postal_code: carrying(text(20).optional(), ofParties('address.postal_code')),
    country: carrying(countryCode, ofParties('address.country'), 'ISO 3166-1 alpha-2'),
  })
  .strict();

const party = z
  .object({
    name: carrying(text(200).optional(), ofParties('name'), 'the legal name'),
    tax_id: carrying(text(50).optional(), ofParties('tax_id'), 'with its country prefix, e.g. BE0123456749'),
    company_registration_id: carrying(
      text(100).optional(),
      ofParties('company_registration_id'),
      'the id alone; its scheme follows from the country',
    ),
    identifier: carrying(
      text(100).optional(),
      ofParties('identifier'),
      "e.g. a GLN; a seller's SEPA creditor id is `payment.creditor_id`",
    ),
    identifier_scheme: carrying(
      z
        .string()
        .regex(/^[0-9]{4}$/, 'an ISO 6523 ICD code: four digits (0088 for a GLN)')
        .optional(),
      ofParties('identifier_scheme'),
      'an ISO 6523 ICD code (`0088`, a GLN); needs `identifier`',
    ),
    peppol_id: carrying(text(140).optional(), ofParties('peppol_id'), 'the Peppol participant id, scheme:id'),
    contact_name: carrying(
      text(200).optional(),
      ofParties('contact_name'),
      'German domestic invoices need the seller’s (DE-R-005)',
    ),
    phone: carrying(text(50).optional(), ofParties('phone'), 'German domestic invoices need the seller’s (DE-R-006)'),
    email: carrying(emailAddress.optional(), ofParties('email')),
    address: address.optional(),
  })
  .strict();

const allowanceOrCharge = z
  .object({
    amount: decimal(termsDescription(ofAllowancesAndCharges('amount'), 'in the document currency, at most 2 decimals')),
    reason: carrying(
      text(200).optional(),
      ofAllowancesAndCharges('reason'),
      'why, in words; this or reason_code is required (BR-33, BR-38, BR-42, BR-44)',
    ),
    reason_code: carrying(
      text(10).optional(),
      ofAllowancesAndCharges('reason_code'),
      'UNCL5189 (allowances) or UNCL7161 (charges) code; this or reason is required',
    ),
  })
  .strict();

/**
 * Every VAT category has a rate except O, not subject to VAT, which has none
 * at all (BR-O-05…07): the rate is optional in the schema and required here
 * unless the category is O. It runs even when other fields of the item are
 * wrong, so the client learns every shape problem at once.
 */
const RATE_REQUIRED = {
  path: ['tax_rate'],
  message: 'tax_rate is required: only category O (not subject to VAT) has no rate',
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};
const hasRateOrIsO = (item: { tax_rate?: string | undefined; tax_category?: TaxCategory | undefined }) =>
  item.tax_rate !== undefined || item.tax_category === 'O';

const documentAllowanceOrCharge = allowanceOrCharge
  .extend({
    tax_rate: decimal(
      termsDescription(['allowances[].tax_rate', 'charges[].tax_rate'], 'in percent; left out for category O'),
    ).optional(),
    tax_category: carrying(z.enum(TAX_CATEGORIES).optional(), ['allowances[].tax_category', 'charges[].tax_category']),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional(),
  })
  .strict()
  .refine(hasRateOrIsO, RATE_REQUIRED);

const line = z
  .object({
    description: carrying(text(1000), ['lines[].description'], 'shown to the buyer'),
    quantity: decimal(termsDescription(['lines[].quantity'], 'negative on a negative invoice line')),
    unit: carrying(
      z
        .string()
        .regex(/^[A-Z0-9]{2,3}$/, 'expected a UN/ECE Recommendation 20 unit code such as C62, HUR or KGM')
        .default('C62'),
      ['lines[].unit'],
      'UN/ECE Recommendation 20; default C62 (one)',
    ),
    unit_price: decimal(termsDescription(['lines[].unit_price'], 'per unit, never negative')),
    tax_rate: decimal(
      termsDescription(['lines[].tax_rate'], 'in percent, e.g. 21; left out for category O (not subject to VAT)'),
    ).optional(),
    tax_category: carrying(
      z.enum(TAX_CATEGORIES).optional(),
      ['lines[].tax_category'],
      'default S when the rate is above 0',
    ),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional().meta({ description: 'VATEX code, e.g. VATEX-EU-AE' }),
    item_id: carrying(text(100).optional(), ['lines[].item_id']),
    note: carrying(text(1000).optional(), ['lines[].note']),
    allowances: z
      .array(allowanceOrCharge)
      .max(
        DOCUMENT_LIMITS.perLineAllowancesOrCharges,
        atMost(DOCUMENT_LIMITS.perLineAllowancesOrCharges, 'allowances per line'),
      )
      .optional(),
    charges: z
      .array(allowanceOrCharge)
      .max(
        DOCUMENT_LIMITS.perLineAllowancesOrCharges,
        atMost(DOCUMENT_LIMITS.perLineAllowancesOrCharges, 'charges per line'),
      )
      .optional(),
  })
  .strict()
  .refine(hasRateOrIsO, RATE_REQUIRED);

const attachment = z
  .object({
    filename: carrying(text(200), ['attachments[].filename']),
    // Any type is parsed; the pre-send checks refuse one Peppol does not allow, naming BR-CL-24 (attachments.ts).
    mime_type: carrying(
      text(127),
      ['attachments[].mime_type'],
      'Peppol allows application/pdf, image/png, image/jpeg, text/csv and the xlsx and ods spreadsheet types',
    ),
    content: carrying(z.string().min(1), ['attachments[].content'], 'base64 of the file'),
    description: carrying(text(500).optional(), ['attachments[].description']),
  })
  .strict();

export const documentInputSchema = z
  .object({
    company_id: z.string().min(1).max(40),
    type: carrying(
      z.enum(['invoice', 'credit_note']).default('invoice'),
      ['type'],
      'an invoice (380) or a credit note (381)',
    ),
    number: carrying(text(200), ['number']),
    issue_date: carrying(isoDate, ['issue_date']),
    due_date: carrying(isoDate.optional(), ['due_date']),
    currency: carrying(
      z
        .string()
        .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as EUR')
        .default('EUR'),
      ['currency'],
    ),
    buyer_reference: carrying(text(200).optional(), ['buyer_reference']),
    order_reference: carrying(text(200).optional(), ['order_reference']),
    note: carrying(text(2000).optional(), ['note']),
    invoice_reference: z
      .object({
        number: carrying(text(200), ['invoice_reference.number']),
        issue_date: carrying(isoDate.optional(), ['invoice_reference.issue_date']),
      })
      .strict()
      .optional(),
    period: z
      .object({ start: carrying(isoDate, ['period.start']), end: carrying(isoDate, ['period.end']) })
      .strict()
      .optional(),
    delivery: z
      .object({
        date: carrying(isoDate.optional(), ['delivery.date']),
        street: carrying(text(200).optional(), ['delivery.street']),
        city: carrying(text(100).optional(), ['delivery.city']),
        postal_code: carrying(text(20).optional(), ['delivery.postal_code']),
        country: carrying(
          countryCode.optional(),
          ['delivery.country'],
          'required with any other part of the deliver-to address (BR-57)',
        ),
      })
      .strict()
      .optional(),
    from: party.default({}),
    to: party,
    lines: z
      .array(line)
      .min(1)
      .max(DOCUMENT_LIMITS.lines, atMost(DOCUMENT_LIMITS.lines, 'lines; split a larger invoice'))
      .refine(
        (lines) =>
          lines.reduce((sum, item) => sum + (item.allowances?.length ?? 0) + (item.charges?.length ?? 0), 0) <=
          DOCUMENT_LIMITS.lineAllowancesAndCharges,
        atMost(DOCUMENT_LIMITS.lineAllowancesAndCharges, 'line allowances and charges together'),
      ),
    allowances: z
      .array(documentAllowanceOrCharge)
      .max(
        DOCUMENT_LIMITS.documentAllowancesOrCharges,
        atMost(DOCUMENT_LIMITS.documentAllowancesOrCharges, 'document allowances'),
      )
      .optional(),
    charges: z
      .array(documentAllowanceOrCharge)
      .max(
        DOCUMENT_LIMITS.documentAllowancesOrCharges,
        atMost(DOCUMENT_LIMITS.documentAllowancesOrCharges, 'document charges'),
      )
      .optional(),
    payment: z
      .object({
        iban: carrying(text(34).optional(), ['payment.iban'], "the seller's account, e.g. an IBAN"),
        bic: carrying(text(11).optional(), ['payment.bic']),
        reference: carrying(text(140).optional(), ['payment.reference'], 'e.g. a structured communication'),
        terms: carrying(text(500).optional(), ['payment.terms']),
        means_code: carrying(
          z
            .string()
            .regex(/^(\d{1,3}|ZZZ)$/, 'expected a UNCL4461 code such as 30 or 58')
            .optional(),
          ['payment.means_code'],
          'UNCL4461',
        ),
        prepaid_amount: decimal(termsDescription(['payment.prepaid_amount'], 'already paid')).optional(),
        rounding_amount: decimal(
          termsDescription(
            ['payment.rounding_amount'],
            'added to the amount due to make it a round figure, e.g. 0.01 or -0.02; less than 1 (one unit of the currency) either way, else 422 naming our rule EINVOICE-BT114',
          ),
        ).optional(),
        mandate_reference: carrying(
          text(140).optional(),
          ['payment.mandate_reference'],
          'direct debit; required with means_code 49 or 59, and alone it means 59 (SEPA direct debit)',
        ),
        creditor_id: carrying(
          text(35).optional(),
          ['payment.creditor_id'],
          "direct debit: the seller's, e.g. a SEPA creditor identifier",
        ),
        debited_account: carrying(
          text(34).optional(),
          ['payment.debited_account'],
          "direct debit: the buyer's account, e.g. an IBAN",
        ),
      })
      .strict()
      .optional(),
    attachments: z
      .array(attachment)
      .max(DOCUMENT_LIMITS.attachments, atMost(DOCUMENT_LIMITS.attachments, 'attachments'))
      .optional(),
    greece: z
      .object({
        mark: text(50).meta({
          description:
            'MARK number the Greek tax authority (myDATA) gave the invoice; Greek sellers must send it (GR-R-004-1)',
        }),
        invoice_url: carrying(
          z
            .url({ protocol: /^https?$/ })
            .max(1000)
            .refine(isXmlSafe, XML_UNSAFE_MESSAGE)
            .optional(),
          ['greece.invoice_url'],
          'where the invoice can be viewed, http(s) (GR-S-008-1)',
        ),
      })
      .strict()
      .optional()
      .meta({ description: 'Data Greek sellers must add (Peppol rules GR-R-*)' }),
    profile: carrying(
      z.enum(['peppol', 'xrechnung', 'pint']).optional(),
      ['profile'],
      "the specification the document follows: `peppol` (default), Peppol BIS Billing 3.0; `xrechnung`, XRechnung 3.0, the German public sector's CIUS of EN 16931: " +
        "it is written with XRechnung's CustomizationID, judged by KoSIT's XRechnung rules (a buyer reference, BT-10, the Leitweg-ID, is required: BR-DE-15; so are the seller's contact and the payment instructions) " +
        'and sent on Peppol as the XRechnung document type; `pint`, Peppol International billing for a seller in Australia or New Zealand (PINT A-NZ, ' +
        "`urn:peppol:pint:billing-1@aunz-1`, process `urn:peppol:bis:billing`): its tax categories are in the GST scheme, an Australian party's legal id is its ABN (scheme 0151), " +
        'it is judged by the PINT A-NZ rules and sent on Peppol as the PINT A-NZ document type, to a receiver that takes it',
    ),
    attach_pdf: z
      .boolean()
      .optional()
      .meta({
        description:
          'Embed the document rendered as a PDF (what `GET /v1/documents/{id}/pdf` shows) as one more supporting document (BG-24, id `RENDERED-PDF`), ' +
          'so a buyer without an e-invoice viewer can read it; labels in German for sellers in DE, AT and LI, else English. ' +
          'Added before the official validation, so the UBL sent and validated carries it; default false',
      }),
    idempotency_key: text(255).optional(),
  })
  .strict()
  .meta({ id: 'DocumentRequest' });

export type DocumentInput = z.output<typeof documentInputSchema>;
export type PartyInput = z.output<typeof party>;
export type LineInput = z.output<typeof line>;
export type DocumentAllowanceCharge = z.output<typeof documentAllowanceOrCharge>;
