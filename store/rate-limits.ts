import { Schema, type Connection } from 'mongoose';

/**
 * One counter per subject and fixed window, shared by every API process.
 * FerretDB has no TTL indexes, so a scheduled workflow deletes expired windows.
 */
const rateWindowSchema = new Schema(
  {
    /** `<subject>@<window start ms>`, e.g. `key:<hash>@1732250000000`. */
    _id: { type: String, required: true },
    count: { type: Number, default: 0 },
    expires_at: { type: Date, required: true, index: true },
  },
  { versionKey: false, collection: 'rate_windows' },
);

export const rateWindowModel = (db: Connection) => db.model('RateWindow', rateWindowSchema);
