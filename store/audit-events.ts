import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * Append-only: the store offers no update or delete for this collection, and
 * nothing in the project calls one. Ids sort by creation time (newSortableId),
 * which gives stable cursors.
 */
const auditEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    action: { type: String, required: true },
    workspace_id: { type: String, required: true },
    actor_account_id: { type: String, required: true },
    actor_key_prefix: { type: String, default: null },
    target_type: { type: String, required: true },
    target_id: { type: String, required: true },
    /** What changed, e.g. `{fields: ['name', 'tax_id']}` or `{role: {from, to}}`. */
    details: { type: Schema.Types.Mixed, default: {} },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'audit_events', minimize: false },
);
auditEventSchema.index({ workspace_id: 1, _id: -1 });

export const auditEventModel = (db: Connection) => db.model('AuditEvent', auditEventSchema);
export type AuditEventRow = InferSchemaType<typeof auditEventSchema>;
