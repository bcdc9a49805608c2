import { Schema, type Connection } from 'mongoose';

/** What a sign-in link and a session each are: a token's hash, for an account, in one environment, until a time. */
const GRANT = {
  _id: { type: String, required: true },
  account_id: { type: String, required: true },
  environment: { type: String, enum: ['sandbox', 'live'], required: true },
  created_at: { type: Date, required: true },
  expires_at: { type: Date, required: true },
} as const;

/** A one-time sign-in link (domain/sessions.ts): stored by its token's hash, spent by one conditional update. */
const signInLinkSchema = new Schema(
  { ...GRANT, used_at: { type: Date, default: null } },
  { versionKey: false, collection: 'sign_in_links' },
);
// The clean-up's range (services/sessions.ts, deleteEndedSignIns).
signInLinkSchema.index({ expires_at: 1 });

/** A signed-in browser: stored by its cookie's hash, with its CSRF token's hash. */
const sessionSchema = new Schema(
  { ...GRANT, csrf_hash: { type: String, required: true }, ended_at: { type: Date, default: null } },
  { versionKey: false, collection: 'sessions' },
);
sessionSchema.index({ expires_at: 1 });

export const signInLinkModel = (db: Connection) => db.model('SignInLink', signInLinkSchema);
export const sessionModel = (db: Connection) => db.model('Session', sessionSchema);
