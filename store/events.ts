import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * The event log: append-only, one row per lifecycle event, the same records
 * the events feed lists and webhooks deliver. Ids are time-sortable
 * (`evt_` + milliseconds + randomness), so a workspace's events page
 * chronologically by id; `dedupe_key` (unique) makes recording an event
 * idempotent, so a retried write never records it twice.
 */
const eventSchema = new Schema(
  {
    _id: { type: String, required: true },
    dedupe_key: { type: String, required: true, unique: true },
    type: { type: String, required: true },
    workspace_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    company_id: { type: String, default: null },
    document_id: { type: String, default: null },
    /** The payload's `data` object, exactly as feed and webhooks show it. */
    data: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'events', minimize: false },
);
eventSchema.index({ workspace_id: 1, environment: 1, _id: 1 });
eventSchema.index({ workspace_id: 1, environment: 1, type: 1, _id: 1 });
eventSchema.index({ workspace_id: 1, environment: 1, company_id: 1, _id: 1 });
eventSchema.index({ document_id: 1, _id: 1 });

export const eventModel = (db: Connection) => db.model('Event', eventSchema);
export type EventRow = InferSchemaType<typeof eventSchema>;
