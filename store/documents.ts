import { Schema, type Connection, type InferSchemaType } from 'mongoose';

import { DOCUMENT_STATUSES, RECEIVED_STATUS } from '../domain/documents/lifecycle';

/**
 * A document is stored in three collections, by how its parts change:
 * - `documents`: the small row whose status moves; only the lifecycle
 *   operation (services/documents/lifecycle.ts) changes it after acceptance.
 * - `document_contents` and `document_attachments`: written once, before the
 *   row (a sent document's by the API, before its workflow records the row);
 *   the UBL sent is exactly the UBL stored here. The send workflow adds to a
 *   content only before delivery, each part once: the embedded rendering
 *   (`attach_pdf`) and the PDF the sandbox email carries.
 */

const documentSchema = new Schema(
  {
    /** Sortable (`doc_` + time + randomness): lists page by id, newest first. */
    _id: { type: String, required: true },
    company_id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    account_id: { type: String, required: true },
    key_prefix: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    /** Rows written before receiving existed have none: they were all sent. */
    direction: { type: String, enum: ['sent', 'received'], default: 'sent' },
    /** `other`: a received document of a type the JSON view does not cover (kept with its UBL). */
    type: { type: String, enum: ['invoice', 'credit_note', 'other'], required: true },
    number: { type: String, required: true },
    issue_date: { type: String, required: true },
    due_date: { type: String, default: null },
    status: { type: String, enum: [...DOCUMENT_STATUSES, RECEIVED_STATUS], required: true },
    /**
     * `<environment>:<company>:<key>`, or `<environment>:<company>:doc:<id>`
     * when no key was sent: always set, because FerretDB has no partial
     * indexes and a unique index would treat every missing key as one value.
     */
    idempotency_scope: { type: String, required: true, unique: true },
    idempotency_key: { type: String, default: null },
    currency: { type: String, required: true },
    totals: {
      type: new Schema(
        {
          line_extension: String,
          allowance_total: String,
          charge_total: String,
          tax_exclusive: String,
          tax: String,
          tax_inclusive: String,
          prepaid: String,
          /** BT-114; absent on documents stored before it was taken (the view says 0.00). */
          payable_rounding: String,
          payable: String,
        },
        { _id: false },
      ),
      /** Null only for a received document whose totals could not be read. */
      default: null,
    },
    recipient_email: { type: String, default: null },
    /** The other party's name, as the document states it: a sent document's buyer, a received one's seller (what the list's search reads). */
    counterparty: { type: String, default: null },
    /** The sender asked for the rendered PDF to be embedded (`attach_pdf`); the send workflow embeds it before validating. */
    attach_pdf: { type: Boolean },
    /** Set once the delivery channel accepted the document (SMTP accepted the email). */
    sent_at: { type: Date, default: null },
    message_id: { type: String, default: null },
    error_message: { type: String, default: null },
    /** The official rule set the document was validated against before sending (set by the send or fail move). */
    rule_set: { type: String, default: null },
    /** What the official rules warned of (nothing fatal) when they judged the UBL before sending: at most 50, each with its rule id. */
    official_warnings: {
      type: [new Schema({ rule: String, message: String, location: String }, { _id: false })],
      default: undefined,
    },
    /** A received document: who sent it and how; null for a sent one. */
    received: {
      type: new Schema(
        {
          source: { type: String, enum: ['peppol', 'sandbox'], required: true },
          sender_id: { type: String, default: null },
          receiver_id: { type: String, required: true },
          access_point: { type: String, default: null },
          as4_message_id: { type: String, required: true },
          document_type_id: { type: String, default: null },
          /** Why the JSON view is unavailable (a document type or content it does not cover); null when it is there. */
          json_view_problem: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    /**
     * The latest Invoice Response about this document: received from the buyer for a sent one, given by our company for a
     * received one (`received_at` null). The whole history is in `invoice_responses`. Delivery `status` is a different fact.
     */
    response: {
      type: new Schema(
        {
          response_id: { type: String, required: true },
          code: { type: String, required: true },
          reasons: {
            type: [new Schema({ code: String, text: { type: String, default: null } }, { _id: false })],
            default: [],
          },
          actions: {
            type: [new Schema({ code: String, text: { type: String, default: null } }, { _id: false })],
            default: [],
          },
          note: { type: String, default: null },
          received_at: { type: Date, default: null },
          created_at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    /** The SBDH InstanceIdentifier of a document sent on Peppol: what the receiving access point's MLS refers to. */
    sbdh_instance_id: { type: String, default: null },
    /** The Message Level Status the receiving access point sent about a sent document (Peppol MLS 1.0). */
    mls: {
      type: new Schema(
        {
          code: { type: String, enum: ['AP', 'AB', 'RE'], required: true },
          reasons: {
            type: [new Schema({ code: String, description: String, line_id: String }, { _id: false })],
            default: [],
          },
          description: { type: String, default: null },
          received_at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    /** When the receiver marked a received document processed (the inbox's pull queue). */
    acknowledged_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'documents' },
);
documentSchema.index({ company_id: 1, environment: 1, _id: -1 });
/** Every company's documents of a workspace together (GET /v1/documents without company_id). */
documentSchema.index({ workspace_id: 1, environment: 1, _id: -1 });
documentSchema.index({ company_id: 1, environment: 1, status: 1, _id: -1 });
documentSchema.index({ company_id: 1, environment: 1, direction: 1, _id: -1 });
documentSchema.index({ company_id: 1, environment: 1, direction: 1, acknowledged_at: 1, _id: -1 });
documentSchema.index({ sbdh_instance_id: 1 });
/** An Invoice Response names the document it answers by its number. */
documentSchema.index({ company_id: 1, environment: 1, number: 1, _id: -1 });
/** Work in progress and stuck work (services/stuck-work.ts): documents in a status, longest waiting first. */
documentSchema.index({ status: 1, updated_at: 1 });

const contentSchema = new Schema(
  {
    /** The document id. */
    _id: { type: String, required: true },
    /** The parsed request (company defaults applied, attachment bytes left out); a received document's JSON view, or null. */
    input: { type: Schema.Types.Mixed, default: null },
    /** The send-ready UBL; exactly these bytes are delivered and downloaded. A received document's UBL as received. */
    ubl: { type: String, required: true },
    /** A document posted as CII: the CII exactly as posted (the UBL above was written from it); null otherwise. */
    cii: { type: String, default: null },
    /** A received document's official validation report (findings as the public validator shows them). */
    validation: { type: Schema.Types.Mixed, default: null },
    /** A sandbox document's rendering, made once before delivery: the email carries it beside the UBL. */
    readable_pdf: { type: Buffer, default: null },
    /** Stored by the API before its document's workflow recorded the document: the clean-up's to remove if it never did. */
    submitted: { type: Boolean },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'document_contents', minimize: false },
);

const attachmentSchema = new Schema(
  {
    _id: { type: String, required: true },
    document_id: { type: String, required: true },
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
attachmentSchema.index({ document_id: 1, position: 1 });

export const documentModel = (db: Connection) => db.model('Document', documentSchema);
export const contentModel = (db: Connection) => db.model('DocumentContent', contentSchema);
export const attachmentModel = (db: Connection) => db.model('DocumentAttachment', attachmentSchema);

export type DocumentRow = InferSchemaType<typeof documentSchema>;
export type AttachmentRow = InferSchemaType<typeof attachmentSchema>;
