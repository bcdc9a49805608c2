import { Schema, type Connection } from 'mongoose';

/** A one-time sign-in link (domain/sessions.ts): stored by its token's hash, spent by one conditional update. */
const signInLinkSchema = new Schema(
  {
    /** SHA-256 of the token the email carries. */
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    used_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'sign_in_links' },
);
// The clean-up's range (services/sessions.ts, deleteEndedSignIns).
signInLinkSchema.index({ expires_at: 1 });

/** A signed-in browser: stored by its cookie's hash, with its CSRF token's hash. */
const sessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    account_id: { type: String, required: true },
    environment: { type: String, enum: ['sandbox', 'live'], required: true },
    csrf_hash: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    ended_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'sessions' },
);
sessionSchema.index({ expires_at: 1 });

export const signInLinkModel = (db: Connection) => db.model('SignInLink', signInLinkSchema);
export const sessionModel = (db: Connection) => db.model('Session', sessionSchema);
