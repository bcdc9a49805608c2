import { Schema, type Connection } from 'mongoose';

const apiKeySchema = new Schema(
  {
    /** SHA-256 of the key: the only form in which a key is stored. */
    _id: { type: String, required: true },
    prefix: { type: String, required: true, unique: true },
    account_id: { type: String, required: true },
    /** The key's home workspace: "the caller's workspace" for endpoints that speak of one. */
    workspace_id: { type: String, required: true },
    company_id: { type: String, default: null },
    label: { type: String, default: '' },
    sandbox: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
    revoked_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'api_keys' },
);
apiKeySchema.index({ account_id: 1, created_at: 1 });
apiKeySchema.index({ workspace_id: 1, account_id: 1 });

export const apiKeyModel = (db: Connection) => db.model('ApiKey', apiKeySchema);
