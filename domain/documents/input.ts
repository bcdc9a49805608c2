import { z } from 'zod';

import { emailAddress, xmlText as text } from '../fields';
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
export const DECIMAL_PATTERN = /^-?\d{1,15}(\.\d{1,10})?$/;
const DECIMAL_MESSAGE = 'expected a decimal number such as 12.50: at most 15 digits before the point and 10 after, no exponent';

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
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a calendar date');
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

const atMost = (limit: number, what: string) => `at most ${limit.toLocaleString('en')} ${what} (this service's limit for one document)`;

export const TAX_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

const address = z
  .object({
    street: text(200).optional(),
    city: text(100).optional(),
    postal_code: text(20).optional(),
    country: countryCode,
  })
  .strict();

const party = z
  .object({
    name: text(200).optional(),
    tax_id: text(50).optional().meta({ description: 'VAT identifier with its country prefix, e.g. BE0123456749' }),
    company_registration_id: text(100).optional().meta({ description: 'Legal registration id (BT-30/BT-47)' }),
    identifier: text(100).optional().meta({ description: 'The party\'s identifier (BT-29/BT-46), e.g. a GLN; a seller\'s SEPA creditor id is `payment.creditor_id`' }),
    identifier_scheme: z
      .string()
      .regex(/^[0-9]{4}$/, 'an ISO 6523 ICD code: four digits (0088 for a GLN)')
      .optional()
      .meta({ description: 'The identifier\'s scheme (BT-29-1/BT-46-1), an ISO 6523 ICD code (`0088`, a GLN); needs `identifier`' }),
    peppol_id: text(140).optional().meta({ description: 'Peppol participant id, scheme:id' }),
    contact_name: text(200).optional().meta({ description: 'Contact point (BT-41/BT-56); German domestic invoices need the seller’s (DE-R-005)' }),
    phone: text(50).optional().meta({ description: 'Contact telephone (BT-42/BT-57); German domestic invoices need the seller’s (DE-R-006)' }),
    email: emailAddress.optional(),
    address: address.optional(),
  })
  .strict();

const allowanceOrCharge = z
  .object({
    amount: decimal('Amount in the document currency, at most 2 decimals'),
    reason: text(200).optional().meta({ description: 'Why, in words; this or reason_code is required (BR-33, BR-38, BR-42, BR-44)' }),
    reason_code: text(10).optional().meta({ description: 'UNCL5189 (allowances) or UNCL7161 (charges) code; this or reason is required' }),
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
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};
const hasRateOrIsO = (item: { tax_rate?: string | undefined; tax_category?: TaxCategory | undefined }) =>
  item.tax_rate !== undefined || item.tax_category === 'O';

const documentAllowanceOrCharge = allowanceOrCharge
  .extend({
    tax_rate: decimal('VAT rate in percent; left out for category O').optional(),
    tax_category: z.enum(TAX_CATEGORIES).optional(),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional(),
  })
  .strict()
  .refine(hasRateOrIsO, RATE_REQUIRED);

const line = z
  .object({
    description: text(1000).meta({ description: 'Item name shown to the buyer' }),
    quantity: decimal('Quantity; negative on a negative invoice line'),
    unit: z
      .string()
      .regex(/^[A-Z0-9]{2,3}$/, 'expected a UN/ECE Recommendation 20 unit code such as C62, HUR or KGM')
      .default('C62'),
    unit_price: decimal('Net price per unit, never negative'),
    tax_rate: decimal('VAT rate in percent, e.g. 21; left out for category O (not subject to VAT)').optional(),
    tax_category: z.enum(TAX_CATEGORIES).optional().meta({ description: 'VAT category; default S when the rate is above 0' }),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional().meta({ description: 'VATEX code, e.g. VATEX-EU-AE' }),
    item_id: text(100).optional().meta({ description: "Seller's item identifier" }),
    note: text(1000).optional(),
    allowances: z.array(allowanceOrCharge).max(DOCUMENT_LIMITS.perLineAllowancesOrCharges, atMost(DOCUMENT_LIMITS.perLineAllowancesOrCharges, 'allowances per line')).optional(),
    charges: z.array(allowanceOrCharge).max(DOCUMENT_LIMITS.perLineAllowancesOrCharges, atMost(DOCUMENT_LIMITS.perLineAllowancesOrCharges, 'charges per line')).optional(),
  })
  .strict()
  .refine(hasRateOrIsO, RATE_REQUIRED);

const attachment = z
  .object({
    filename: text(200),
    // Any type is parsed; the pre-send checks refuse one Peppol does not allow, naming BR-CL-24 (attachments.ts).
    mime_type: text(127).meta({ description: 'MIME type; Peppol allows application/pdf, image/png, image/jpeg, text/csv and the xlsx and ods spreadsheet types' }),
    content: z.string().min(1).meta({ description: 'Base64 of the file' }),
    description: text(500).optional(),
  })
  .strict();

export const documentInputSchema = z
  .object({
    company_id: z.string().min(1).max(40),
    type: z.enum(['invoice', 'credit_note']).default('invoice'),
    number: text(200),
    issue_date: isoDate,
    due_date: isoDate.optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as EUR').default('EUR'),
    buyer_reference: text(200).optional(),
    order_reference: text(200).optional(),
    note: text(2000).optional(),
    invoice_reference: z.object({ number: text(200), issue_date: isoDate.optional() }).strict().optional(),
    period: z.object({ start: isoDate, end: isoDate }).strict().optional(),
    delivery: z
      .object({
        date: isoDate.optional(),
        street: text(200).optional(),
        city: text(100).optional(),
        postal_code: text(20).optional(),
        country: countryCode.optional().meta({ description: 'Deliver-to country; required with any other part of the deliver-to address (BR-57)' }),
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
        (lines) => lines.reduce((sum, item) => sum + (item.allowances?.length ?? 0) + (item.charges?.length ?? 0), 0) <= DOCUMENT_LIMITS.lineAllowancesAndCharges,
        atMost(DOCUMENT_LIMITS.lineAllowancesAndCharges, 'line allowances and charges together'),
      ),
    allowances: z.array(documentAllowanceOrCharge).max(DOCUMENT_LIMITS.documentAllowancesOrCharges, atMost(DOCUMENT_LIMITS.documentAllowancesOrCharges, 'document allowances')).optional(),
    charges: z.array(documentAllowanceOrCharge).max(DOCUMENT_LIMITS.documentAllowancesOrCharges, atMost(DOCUMENT_LIMITS.documentAllowancesOrCharges, 'document charges')).optional(),
    payment: z
      .object({
        iban: text(34).optional(),
        bic: text(11).optional(),
        reference: text(140).optional().meta({ description: 'Remittance information (structured communication)' }),
        terms: text(500).optional(),
        means_code: z.string().regex(/^(\d{1,3}|ZZZ)$/, 'expected a UNCL4461 code such as 30 or 58').optional(),
        prepaid_amount: decimal('Amount already paid').optional(),
        rounding_amount: decimal(
          'Payable rounding amount (BT-114): added to the amount due to make it a round figure, e.g. 0.01 or -0.02; less than 1 (one unit of the currency) either way, else 422 naming our rule EINVOICE-BT114',
        ).optional(),
        mandate_reference: text(140)
          .optional()
          .meta({ description: 'Direct debit: the mandate reference (BT-89); required with means_code 49 or 59, and alone it means 59 (SEPA direct debit)' }),
        creditor_id: text(35).optional().meta({ description: "Direct debit: the seller's bank-assigned creditor identifier (BT-90), e.g. a SEPA creditor identifier" }),
        debited_account: text(34).optional().meta({ description: "Direct debit: the buyer's account to be debited (BT-91), e.g. an IBAN" }),
      })
      .strict()
      .optional(),
    attachments: z.array(attachment).max(DOCUMENT_LIMITS.attachments, atMost(DOCUMENT_LIMITS.attachments, 'attachments')).optional(),
    greece: z
      .object({
        mark: text(50).meta({ description: 'MARK number the Greek tax authority (myDATA) gave the invoice; Greek sellers must send it (GR-R-004-1)' }),
        invoice_url: z.url({ protocol: /^https?$/ }).max(1000).refine(isXmlSafe, XML_UNSAFE_MESSAGE).optional().meta({ description: 'Where the invoice can be viewed, http(s) (GR-S-008-1)' }),
      })
      .strict()
      .optional()
      .meta({ description: 'Data Greek sellers must add (Peppol rules GR-R-*)' }),
    profile: z
      .enum(['peppol', 'xrechnung', 'pint'])
      .optional()
      .meta({
        description:
          'The specification the document follows (BT-24): `peppol` (default), Peppol BIS Billing 3.0; `xrechnung`, XRechnung 3.0, the German public sector\'s CIUS of EN 16931: ' +
          'it is written with XRechnung\'s CustomizationID, judged by KoSIT\'s XRechnung rules (a buyer reference, BT-10, the Leitweg-ID, is required: BR-DE-15; so are the seller\'s contact and the payment instructions) ' +
          'and sent on Peppol as the XRechnung document type; `pint`, Peppol International billing for a seller in Australia or New Zealand (PINT A-NZ, ' +
          '`urn:peppol:pint:billing-1@aunz-1`, process `urn:peppol:bis:billing`): its tax categories are in the GST scheme, an Australian party\'s legal id is its ABN (scheme 0151), ' +
          'it is judged by the PINT A-NZ rules and sent on Peppol as the PINT A-NZ document type, to a receiver that takes it',
      }),
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
