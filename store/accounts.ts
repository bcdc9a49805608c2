import { Schema, type Connection } from 'mongoose';

const accountSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    /** Lower-cased email: the unique index makes signup race-free. */
    email_key: { type: String, required: true, unique: true },
    name: { type: String, default: null },
    status: { type: String, enum: ['active', 'disabled'], default: 'active' },
    /** Requests per minute set by support for this account; null means the environment default. */
    rate_limit_per_minute: { type: Number, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'accounts' },
);

export const accountModel = (db: Connection) => db.model('Account', accountSchema);
