import { Schema, type Connection } from 'mongoose';

export const DOCUMENT_STATUSES = ['queued', 'sending', 'delivered', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

const documentSchema = new Schema(
  {
    /** Sortable (`doc_` + time + randomness): lists page by id, newest first. */
    _id: { type: String, required: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    account_id: { type: String, required: true },
    key_prefix: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    type: { type: String, enum: ['invoice', 'credit_note'], required: true },
    number: { type: String, required: true },
    status: { type: String, enum: DOCUMENT_STATUSES, required: true },
    /**
     * `<company>:<idempotency key>`, or `<company>:doc:<id>` when none was sent:
     * always set, because FerretDB has no partial indexes and a unique index
     * would treat every missing key as the same value.
     */
    idempotency_scope: { type: String, required: true, unique: true },
    idempotency_key: { type: String, default: null },
    /** The parsed request, attachments' content left out (they live in document_attachments). */
    input: { type: Schema.Types.Mixed, required: true },
    currency: { type: String, required: true },
    totals: { type: Schema.Types.Mixed, required: true },
    recipient_email: { type: String, default: null },
    /** The send-ready UBL; exactly these bytes are delivered and downloaded. */
    ubl: { type: String, required: true },
    /** Set once the delivery channel accepted the document (the email was handed to SMTP). Written only by its workflow. */
    sent_at: { type: Date, default: null },
    message_id: { type: String, default: null },
    error_message: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'documents', minimize: false },
);
documentSchema.index({ company_id: 1, _id: -1 });
documentSchema.index({ company_id: 1, status: 1, _id: -1 });
documentSchema.index({ status: 1, created_at: 1 });

/**
 * "This document's send workflow was started": an insert-only record. It is
 * deliberately not a field of the document, because the send workflow
 * updates the document at the same time, and FerretDB v1 loses one of two
 * concurrent updates to one document even when they touch different fields.
 */
const dispatchSchema = new Schema(
  { _id: { type: String, required: true }, started_at: { type: Date, required: true } },
  { versionKey: false, collection: 'document_dispatches' },
);

const attachmentSchema = new Schema(
  {
    _id: { type: String, required: true },
    document_id: { type: String, required: true, index: true },
    position: { type: Number, required: true },
    filename: { type: String, required: true },
    mime_type: { type: String, required: true },
    description: { type: String, default: null },
    size_bytes: { type: Number, required: true },
    sha256: { type: String, required: true },
    content: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'document_attachments' },
);

/**
 * Delivery history and lifecycle events, one insert per transition. The id is
 * derived from the document and the step, so a retried activity cannot record
 * a step twice (the insert loses the race and changes nothing).
 */
const historySchema = new Schema(
  {
    _id: { type: String, required: true },
    document_id: { type: String, required: true, index: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    step: { type: String, enum: ['created', 'validated', 'queued', 'in_transit', 'delivered', 'failed'], required: true },
    status: { type: String, enum: DOCUMENT_STATUSES, required: true },
    /** The webhook event this step raises (`evt_…` id and kind), if any. */
    event_id: { type: String, default: null },
    event_type: { type: String, default: null },
    number: { type: String, required: true },
    message: { type: String, default: null },
    error_message: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'document_history' },
);
historySchema.index({ workspace_id: 1, event_id: 1 });

export const documentModel = (db: Connection) => db.model('Document', documentSchema);
export const attachmentModel = (db: Connection) => db.model('DocumentAttachment', attachmentSchema);
export const historyModel = (db: Connection) => db.model('DocumentHistory', historySchema);
export const dispatchModel = (db: Connection) => db.model('DocumentDispatch', dispatchSchema);
