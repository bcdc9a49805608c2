import { Schema, type Connection } from 'mongoose';

/**
 * Rate-limit windows as claimed slots: a request that is the n-th of its
 * window inserts `<window>#<n>`. Unique inserts are atomic on every backend,
 * so slot numbers are exact positions shared by every API process. FerretDB
 * has no TTL indexes, so a scheduled workflow deletes expired slots.
 */
const rateSlotSchema = new Schema(
  {
    /** `<subject>@<window start ms>#<slot>`. */
    _id: { type: String, required: true },
    window: { type: String, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'rate_slots' },
);
rateSlotSchema.index({ window: 1 });
rateSlotSchema.index({ expires_at: 1 });

export const rateSlotModel = (db: Connection) => db.model('RateSlot', rateSlotSchema);
