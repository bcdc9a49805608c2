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
    credit_balance: { type: String, default: '0.00' },
    suspended: { type: Boolean, default: false },
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
