import type { Environment } from '../environment';

/**
 * What a sent document's send workflow is started with and answers (services/documents/accept.ts): the
 * workflow carries these through its history, so they are plain data, small (the document's parts are stored
 * under its id), and declared here, where the workflows may read them.
 */

/** Totals as stored and shown: decimal strings with 2 decimals. */
export interface DocumentTotals {
  line_extension: string;
  allowance_total: string;
  charge_total: string;
  tax_exclusive: string;
  tax: string;
  tax_inclusive: string;
  prepaid: string;
  payable_rounding: string;
  payable: string;
}

/** The document row a request accepts, as the API makes it, before its workflow records it (its times apart). */
export interface AcceptedDocument {
  _id: string;
  company_id: string;
  workspace_id: string;
  account_id: string;
  key_prefix: string;
  environment: Environment;
  direction: 'sent';
  type: 'invoice' | 'credit_note';
  number: string;
  issue_date: string;
  due_date: string | null;
  status: 'queued';
  idempotency_scope: string;
  idempotency_key: string | null;
  currency: string;
  totals: DocumentTotals;
  recipient_email: string;
  counterparty: string | null;
  attach_pdf: boolean;
  sent_at: null;
  message_id: null;
  error_message: null;
  rule_set: null;
}

/** A live document's price and the balance below which `credits.low` is raised (units of 1/10000 EUR). */
export interface Charge {
  priceUnits: number;
  lowThresholdUnits: number;
}

/** What the send workflow's first step records: the row, when it was accepted (ISO 8601), a live document's charge, its history line. */
export interface DocumentAcceptance {
  row: AcceptedDocument;
  acceptedAt: string;
  charge: Charge | null;
  message: string;
}

/** How the first step ended: recorded; a repeat of an earlier request's key (that document answers); not paid for; too late. */
export type AcceptanceOutcome =
  | { outcome: 'accepted'; documentId: string; balanceUnits: number | null }
  | { outcome: 'repeat'; documentId: string }
  | { outcome: 'unpaid'; balanceUnits: number; priceUnits: number }
  | { outcome: 'expired' };
