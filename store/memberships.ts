import { Schema, type Connection } from 'mongoose';

import { ROLES } from '../domain/roles';

const membershipSchema = new Schema(
  {
    /** `<workspace id>:<account id>`: one membership per pair, enforced by the primary key. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true, index: true },
    account_id: { type: String, required: true, index: true },
    role: { type: String, enum: ROLES, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'memberships' },
);

export const membershipId = (workspaceId: string, accountId: string) => `${workspaceId}:${accountId}`;
export const membershipModel = (db: Connection) => db.model('Membership', membershipSchema);
