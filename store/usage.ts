import { Schema, type Connection } from 'mongoose';

/** Daily counters per account (UTC day), raised with `$inc` (atomic on MongoDB and on the embedded FerretDB build). */
const usageDaySchema = new Schema(
  {
    /** `<account id>:<YYYY-MM-DD>`. */
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    day: { type: String, required: true },
    api_calls: { type: Number, default: 0 },
    documents_sent: { type: Number, default: 0 },
    /** Counted for the workspace's first owner: a received document has no sender among our accounts. */
    documents_received: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'usage_days' },
);
usageDaySchema.index({ account_id: 1, day: 1 });

export const usageDayModel = (db: Connection) => db.model('UsageDay', usageDaySchema);
