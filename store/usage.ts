import { Schema, type Connection } from 'mongoose';

/**
 * Daily counters per account. Each process writes only its own documents
 * (`writer`) and never two updates to one document at a time, because
 * FerretDB v1 loses concurrent `$inc`s on one document; a day's total is the
 * sum over writers.
 */
const usageDaySchema = new Schema(
  {
    /** `<account id>:<YYYY-MM-DD>:<writer>` (UTC day). */
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    day: { type: String, required: true },
    writer: { type: String, required: true },
    api_calls: { type: Number, default: 0 },
    documents_sent: { type: Number, default: 0 },
  },
  { versionKey: false, collection: 'usage_days' },
);
usageDaySchema.index({ account_id: 1, day: 1 });

export const usageDayModel = (db: Connection) => db.model('UsageDay', usageDaySchema);
