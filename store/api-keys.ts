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
    /**
     * What a request needs of the key's account, kept on the key so that
     * authenticating is one read: written with the key and by every change of
     * these account fields (services/api-keys.ts, refreshKeysOfAccount).
     * Absent on keys made before it existed: those read the account.
     */
    account: {
      type: new Schema(
        {
          email: { type: String, required: true },
          status: { type: String, required: true },
          rate_limit_per_minute: { type: Number, default: null },
        },
        { _id: false },
      ),
      default: undefined,
    },
  },
  { versionKey: false, collection: 'api_keys' },
);
apiKeySchema.index({ account_id: 1, created_at: 1 });
apiKeySchema.index({ workspace_id: 1, account_id: 1 });

export const apiKeyModel = (db: Connection) => db.model('ApiKey', apiKeySchema);
