import { z } from 'zod';

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

/** Free text that ends up in the UBL: trimmed, bounded, and only characters XML can carry. */
const text = (max: number) => z.string().trim().min(1).max(max).refine(isXmlSafe, XML_UNSAFE_MESSAGE);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a calendar date');
const countryCode = z.string().regex(/^([A-Z]{2}|1A)$/, 'expected an ISO 3166-1 alpha-2 country code such as BE');

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
    peppol_id: text(140).optional().meta({ description: 'Peppol participant id, scheme:id' }),
    email: z.email().max(254).optional(),
    address: address.optional(),
  })
  .strict();

const allowanceOrCharge = z
  .object({
    amount: decimal('Amount in the document currency, at most 2 decimals'),
    reason: text(200),
    reason_code: text(10).optional().meta({ description: 'UNCL5189 (allowances) or UNCL7161 (charges) code' }),
  })
  .strict();

const documentAllowanceOrCharge = allowanceOrCharge
  .extend({
    tax_rate: decimal('VAT rate in percent'),
    tax_category: z.enum(TAX_CATEGORIES).optional(),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional(),
  })
  .strict();

const line = z
  .object({
    description: text(1000).meta({ description: 'Item name shown to the buyer' }),
    quantity: decimal('Quantity; negative on a negative invoice line'),
    unit: z
      .string()
      .regex(/^[A-Z0-9]{2,3}$/, 'expected a UN/ECE Recommendation 20 unit code such as C62, HUR or KGM')
      .default('C62'),
    unit_price: decimal('Net price per unit, never negative'),
    tax_rate: decimal('VAT rate in percent, e.g. 21'),
    tax_category: z.enum(TAX_CATEGORIES).optional().meta({ description: 'VAT category; default S when the rate is above 0' }),
    tax_exemption_reason: text(300).optional(),
    tax_exemption_reason_code: text(30).optional().meta({ description: 'VATEX code, e.g. VATEX-EU-AE' }),
    item_id: text(100).optional().meta({ description: "Seller's item identifier" }),
    note: text(1000).optional(),
    allowances: z.array(allowanceOrCharge).max(20).optional(),
    charges: z.array(allowanceOrCharge).max(20).optional(),
  })
  .strict();

export const ATTACHMENT_MIME_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
] as const;

const attachment = z
  .object({
    filename: text(200),
    mime_type: z.enum(ATTACHMENT_MIME_TYPES),
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
    delivery: z.object({ date: isoDate.optional(), country: countryCode.optional() }).strict().optional(),
    from: party.default({}),
    to: party,
    lines: z.array(line).min(1).max(1000),
    allowances: z.array(documentAllowanceOrCharge).max(50).optional(),
    charges: z.array(documentAllowanceOrCharge).max(50).optional(),
    payment: z
      .object({
        iban: text(34).optional(),
        bic: text(11).optional(),
        reference: text(140).optional().meta({ description: 'Remittance information (structured communication)' }),
        terms: text(500).optional(),
        means_code: z.string().regex(/^(\d{1,3}|ZZZ)$/, 'expected a UNCL4461 code such as 30 or 58').optional(),
        prepaid_amount: decimal('Amount already paid').optional(),
      })
      .strict()
      .optional(),
    attachments: z.array(attachment).max(10).optional(),
    idempotency_key: text(255).optional(),
  })
  .strict()
  .meta({ id: 'DocumentRequest' });

export type DocumentInput = z.output<typeof documentInputSchema>;
export type PartyInput = z.output<typeof party>;
export type LineInput = z.output<typeof line>;
export type DocumentAllowanceCharge = z.output<typeof documentAllowanceOrCharge>;
