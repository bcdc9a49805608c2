import { Schema, type Connection } from 'mongoose';

/**
 * Membership of an account in a workspace. Who is an owner is decided by the
 * workspace row (`owner_ids`, changed only by conditional single-document
 * updates, so the last owner can never be demoted or removed, even by two
 * owners at once); `role` here is the role a member has besides that:
 * `admin` or `member`, and `owner` only as the base of an owner who was
 * added as one.
 */
const membershipSchema = new Schema(
  {
    /** `<workspace id>:<account id>`: one membership per pair, enforced by the primary key. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    account_id: { type: String, required: true },
    role: { type: String, enum: ['admin', 'member'], required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'memberships' },
);
membershipSchema.index({ workspace_id: 1, created_at: 1 });
membershipSchema.index({ account_id: 1, created_at: 1 });

export const membershipId = (workspaceId: string, accountId: string) => `${workspaceId}:${accountId}`;
export const membershipModel = (db: Connection) => db.model('Membership', membershipSchema);
