import { Schema, type Connection } from 'mongoose';

/**
 * Renderings people asked for (`GET /v1/documents/{id}/pdf`, `/html`), kept so the same one is never
 * rendered twice: `_id` names the document and the rendering (`<document id>:<rendering tag>`, the tag
 * naming the UBL's hash, the format and the language), so a row is right for as long as it exists and
 * two processes that render the same one at once both insert it and one of them is refused (unique `_id`).
 */
const renderingSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The rendered bytes, gzipped: a 1,000-line document's HTML is some 15 MB, and 200 KB gzipped. */
    gzipped: { type: Buffer, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'renderings' },
);

export const renderingModel = (db: Connection) => db.model('Rendering', renderingSchema);

/**
 * The rendering each API key has in flight, at most one (`_id`: the key's prefix; a second claim is a
 * duplicate key). `token` names the claim, so only its holder ends it; a claim whose holder died ends
 * at `expires_at` (FerretDB has no TTL indexes: the next claim replaces an expired one).
 */
const renderingClaimSchema = new Schema(
  {
    _id: { type: String, required: true },
    token: { type: String, required: true },
    expires_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'rendering_claims' },
);

export const renderingClaimModel = (db: Connection) => db.model('RenderingClaim', renderingClaimSchema);
