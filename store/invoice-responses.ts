import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * `invoice_responses`: every Peppol Invoice Response (BIS Invoice Response 3)
 * the service sends for a received document or receives for a sent one,
 * oldest first per document. A sent one moves `queued` → `sent` | `failed`
 * under its send workflow; a received one is written once, with the id of
 * the received message it came in, so filing it again changes nothing.
 * `document_id` is null for a received response that matched none of the
 * company's documents: it is kept and shown, never dropped.
 */

const clarificationSchema = new Schema(
  { code: { type: String, required: true }, text: { type: String, default: null } },
  { _id: false },
);

const invoiceResponseSchema = new Schema(
  {
    _id: { type: String, required: true },
    document_id: { type: String, default: null },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    direction: { type: String, enum: ['sent', 'received'], required: true },
    code: { type: String, enum: ['AB', 'IP', 'UQ', 'CA', 'RE', 'AP', 'PD'], required: true },
    reasons: { type: [clarificationSchema], default: [] },
    actions: { type: [clarificationSchema], default: [] },
    note: { type: String, default: null },
    /** `received` then `refused` when the process rules forbid it after the document's response (kept, not applied). */
    status: { type: String, enum: ['queued', 'sent', 'failed', 'received', 'refused'], required: true },
    /** Participant values: the buyer who answered and the seller answered. */
    sender_id: { type: String, default: null },
    receiver_id: { type: String, default: null },
    /** What the response names: the invoice or credit note number and type code. */
    referenced_number: { type: String, required: true },
    referenced_type_code: { type: String, default: null },
    ubl: { type: String, required: true },
    /** The SBDH's COUNTRY_C1 of a sent response: the answering company's country. */
    country_c1: { type: String, default: null },
    as4_message_id: { type: String, default: null },
    error_message: { type: String, default: null },
    /**
     * A sent response: false from its insert (by the request) until its send workflow's first step has made it
     * its document's `response` (the claim); one that lost its race, or whose request died before its workflow
     * started, is never sent and is removed by the clean-up. Absent on received ones, and on sent ones from
     * before it existed (all claimed).
     */
    claimed: { type: Boolean },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'invoice_responses' },
);
invoiceResponseSchema.index({ document_id: 1, _id: 1 });
invoiceResponseSchema.index({ company_id: 1, environment: 1, _id: -1 });
/** The clean-up of responses never given: unclaimed rows, oldest first. */
invoiceResponseSchema.index({ claimed: 1, _id: 1 });
/** Stuck work (services/stuck-work.ts): sent responses still queued, longest waiting first. */
invoiceResponseSchema.index({ status: 1, updated_at: 1 });

export type InvoiceResponseRow = InferSchemaType<typeof invoiceResponseSchema>;

export const invoiceResponseModel = (db: Connection) => db.model('InvoiceResponse', invoiceResponseSchema);
