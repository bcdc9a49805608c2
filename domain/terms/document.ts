import type { DocumentJson, Party, ReceivedAllowanceCharge, ReceivedLine } from '../ubl/received-view';

/**
 * A document as its EN 16931 business terms: what the term table
 * (table.ts) maps to and from each syntax. It is the API's document JSON
 * (the view a client posts and a received document is read into) with what
 * the JSON leaves to the service beside it: the totals and the VAT
 * breakdown, each line's net amount and position, each attachment's id, and
 * the specification and process the document follows. Every value is the
 * text a syntax carries (amounts and rates as decimal strings, dates
 * YYYY-MM-DD); a writer formats, never computes.
 */

interface TermTotals {
  line_extension: string;
  allowance_total?: string | undefined;
  charge_total?: string | undefined;
  tax_exclusive: string;
  tax: string;
  tax_inclusive: string;
  prepaid?: string | undefined;
  payable_rounding?: string | undefined;
  payable: string;
}

export interface TermVatBreakdown {
  category: string;
  rate?: string | undefined;
  taxable: string;
  tax: string;
  exemption_reason?: string | undefined;
  exemption_reason_code?: string | undefined;
}

export type TermAllowanceCharge = ReceivedAllowanceCharge;

export type TermLine = ReceivedLine & {
  /** Position, 1, 2, 3 … (BT-126). */
  id: string;
  /** Net amount (BT-131). */
  net: string;
  unit: string;
  /** BT-149/BT-150: read only; the JSON view's price is per unit (one of `unit`), so a document written from it states none. */
  price_base_quantity?: string | undefined;
  price_base_unit?: string | undefined;
};

/** A supporting document (BG-24): an embedded file (its content in base64), or a reference (the Greek MARK, an external URI). */
export interface TermAttachment {
  id: string;
  description?: string | undefined;
  uri?: string | undefined;
  filename?: string | undefined;
  mime_type?: string | undefined;
  content?: string | undefined;
}

/** A party; its trading name (BT-28, BT-45) is the service's, not in the JSON. */
export type TermParty = Party & { trading_name?: string | undefined };

export type TermDocument = Omit<DocumentJson, 'lines' | 'attachments' | 'from' | 'to' | 'currency'> & {
  /** BT-24: the specification the document claims to follow. */
  specification: string;
  /** BT-23: the business process. */
  process: string;
  /** The tax scheme of every tax category and tax registration: VAT, or GST for PINT A-NZ. */
  taxScheme: string;
  /** BT-3: 380 (commercial invoice) or 381 (credit note). */
  type_code: string;
  currency: string;
  from: TermParty;
  to: TermParty;
  lines: TermLine[];
  attachments?: TermAttachment[] | undefined;
  totals: TermTotals;
  vat_breakdown: TermVatBreakdown[];
};
