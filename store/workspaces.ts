import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const workspaceSchema = new Schema(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    /**
     * The workspace's owners. Every change is one conditional update of this
     * row (atomic on MongoDB and on the embedded FerretDB build), guarded so
     * the list never becomes empty.
     */
    owner_ids: { type: [String], required: true },
    /** `sandbox` until the workspace is verified (KYC), then `live`. */
    mode: { type: String, enum: ['sandbox', 'live'], default: 'sandbox' },
    /**
     * Prepaid credits in ten-thousandths of a euro. Changed only by
     * services/credits: one conditional update adds the amount and marks the
     * operation in `credit_ops` (atomic on MongoDB and on our FerretDB build),
     * so an operation applies once and a charge never takes it below zero.
     */
    credit_balance_units: { type: Number, default: 0 },
    /** Operations applied to the balance whose ledger entry is not written yet, by operation id. */
    credit_ops: { type: Schema.Types.Mixed, default: {} },
    /** The price of one live document for this workspace, when it differs from LIVE_DOCUMENT_PRICE. */
    document_price_units: { type: Number, default: null },
    /** What a sandbox document's email carries besides its UBL: its PDF, or its Factur-X (the PDF/A-3 with the CII inside). */
    sandbox_email_pdf: { type: String, enum: ['pdf', 'facturx'], default: 'pdf' },
    suspended: { type: Boolean, default: false },
    suspension_reason: { type: String, default: null },
    created_at: { type: Date, required: true },
    /** Set while a deletion checks its conditions; a workspace being deleted owns nobody. */
    deleting_at: { type: Date, default: null },
    /** Deleted workspaces keep their data for the audit trail but are gone for everyone. */
    deleted_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'workspaces' },
);

export const workspaceModel = (db: Connection) => db.model('Workspace', workspaceSchema);
export type WorkspaceRow = InferSchemaType<typeof workspaceSchema>;
