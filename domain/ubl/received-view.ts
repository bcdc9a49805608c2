import type { z } from 'zod';

import type { documentInputSchema, TaxCategory } from '../documents/input';

/**
 * What reading a received UBL document gives (read.ts): the JSON view, the
 * totals as the UBL states them, its embedded files and what the view does
 * not carry.
 */

type DocumentRequest = z.input<typeof documentInputSchema>;
type RequestAllowanceCharge = NonNullable<DocumentRequest['allowances']>[number];
export type Party = NonNullable<DocumentRequest['from']>;
/** A VAT category as the UBL states it: UBL has codes the input does not take (B, Italian split payment), which its schema then refuses. */
type StatedCategory<T> = Omit<T, 'tax_category'> & { tax_category?: TaxCategory | (string & {}) };
export type ReceivedLine = StatedCategory<DocumentRequest['lines'][number]>;
export type ReceivedAllowanceCharge = StatedCategory<RequestAllowanceCharge>;
export type DocumentJson = Omit<DocumentRequest, 'company_id' | 'from' | 'lines' | 'allowances' | 'charges'> & {
  /** Always there: a received document names its seller (the input defaults it from the sending company). */
  from: Party;
  lines: ReceivedLine[];
  allowances?: ReceivedAllowanceCharge[];
  charges?: ReceivedAllowanceCharge[];
};

/** Amounts as the UBL states them (plain decimal strings); null where it states none. */
export interface StatedTotals {
  line_extension: string | null;
  allowance_total: string | null;
  charge_total: string | null;
  tax_exclusive: string | null;
  /** The VAT total in the document currency. */
  tax: string | null;
  tax_inclusive: string | null;
  prepaid: string | null;
  payable_rounding: string | null;
  payable: string | null;
  tax_breakdown: { category: string | null; rate: string | null; taxable: string | null; tax: string | null }[];
}

export interface ReceivedAttachment {
  id: string | null;
  filename: string | null;
  mime_code: string | null;
  description?: string;
  content: Buffer;
}

export interface ReceivedUbl {
  kind: 'invoice' | 'credit_note';
  /** The JSON a client could post (without company_id). */
  document: DocumentJson;
  stated_totals: StatedTotals;
  /** Each line's net amount (BT-131) as stated, in the order of `document.lines`; null where none is. */
  stated_line_nets: (string | null)[];
  attachments: ReceivedAttachment[];
  /** What the JSON view does not carry, by UBL path (with the reason where there is one). */
  unmapped: string[];
}

export type UblReadResult = ReceivedUbl | { unsupported: string };
