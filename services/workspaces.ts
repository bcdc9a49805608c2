import { newId } from '../domain/ids';
import type { Role } from '../domain/roles';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { membershipId } from '../store/memberships';
import { revokeKeysOfMember } from './api-keys';
import { recordAudit, type Actor } from './audit';

export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
  mode: string;
  credit_balance: string;
  suspended: boolean;
  created_at: string;
}

type WorkspaceRow = { _id: string; name: string; mode: string; credit_balance: string; suspended: boolean; created_at: Date };

export function workspaceView(workspace: WorkspaceRow, role: Role): WorkspaceView {
  return {
    id: workspace._id,
    name: workspace.name,
    role,
    mode: workspace.mode,
    credit_balance: workspace.credit_balance,
    suspended: workspace.suspended,
    created_at: workspace.created_at.toISOString(),
  };
}

/** The caller's membership of a live (not deleted) workspace, or null. */
export async function findMembership(store: Store, workspaceId: string, accountId: string) {
  const [membership, workspace] = await Promise.all([
    store.memberships.findById(membershipId(workspaceId, accountId)).lean(),
    store.workspaces.findOne({ _id: workspaceId, deleted_at: null }).lean(),
  ]);
  if (!membership || !workspace) return null;
  return { workspace, role: membership.role };
}

export async function createWorkspace(store: Store, actor: Actor, name: string): Promise<WorkspaceView> {
  const now = new Date();
  const workspace = await store.workspaces.create({ _id: newId('workspace'), name, created_at: now });
  await store.memberships.create({
    _id: membershipId(workspace._id, actor.accountId),
    workspace_id: workspace._id,
    account_id: actor.accountId,
    role: 'owner',
    created_at: now,
  });
  await recordAudit(store, actor, { action: 'workspace.created', workspaceId: workspace._id, target: { type: 'workspace', id: workspace._id } });
  return workspaceView(workspace, 'owner');
}

export async function listWorkspaces(store: Store, accountId: string): Promise<WorkspaceView[]> {
  const memberships = await store.memberships.find({ account_id: accountId }).lean();
  const roles = new Map(memberships.map((membership) => [membership.workspace_id, membership.role]));
  const workspaces = await store.workspaces.find({ _id: { $in: [...roles.keys()] }, deleted_at: null }).sort({ created_at: 1 }).lean();
  return workspaces.map((workspace) => workspaceView(workspace, roles.get(workspace._id)!));
}

export async function renameWorkspace(store: Store, actor: Actor, workspaceId: string, name: string, role: Role): Promise<WorkspaceView> {
  const workspace = await store.workspaces.findOneAndUpdate({ _id: workspaceId, deleted_at: null }, { $set: { name } }, { new: true }).lean();
  await recordAudit(store, actor, { action: 'workspace.updated', workspaceId, target: { type: 'workspace', id: workspaceId }, details: { fields: ['name'] } });
  return workspaceView(workspace!, role);
}

/** Accounts of the workspace that own no other workspace, and so would be left without one. */
export async function membersLeftWithoutOwnedWorkspace(store: Store, workspaceId: string): Promise<string[]> {
  const members = await store.memberships.find({ workspace_id: workspaceId }).lean();
  const accountIds = members.map((member) => member.account_id);
  const ownedElsewhere = await store.memberships.find({ account_id: { $in: accountIds }, role: 'owner', workspace_id: { $ne: workspaceId } }).lean();
  const owners = new Set(ownedElsewhere.map((membership) => membership.account_id));
  return accountIds.filter((accountId) => !owners.has(accountId));
}

/** Marks the workspace deleted, ends every membership and revokes every key at home there. */
export async function deleteWorkspace(store: Store, actor: Actor, workspaceId: string): Promise<void> {
  await store.workspaces.updateOne({ _id: workspaceId }, { $set: { deleted_at: new Date() } });
  await revokeKeysOfMember(store, workspaceId);
  await store.memberships.deleteMany({ workspace_id: workspaceId });
  await recordAudit(store, actor, { action: 'workspace.deleted', workspaceId, target: { type: 'workspace', id: workspaceId } });
}

export interface MemberView {
  account_id: string;
  email: string;
  name: string | null;
  role: Role;
  joined_at: string;
}

export async function listMembers(store: Store, workspaceId: string): Promise<MemberView[]> {
  const memberships = await store.memberships.find({ workspace_id: workspaceId }).sort({ created_at: 1 }).lean();
  const accounts = await store.accounts.find({ _id: { $in: memberships.map((membership) => membership.account_id) } }).lean();
  const byId = new Map(accounts.map((account) => [account._id, account]));
  return memberships.map((membership) => ({
    account_id: membership.account_id,
    email: byId.get(membership.account_id)?.email ?? '',
    name: byId.get(membership.account_id)?.name ?? null,
    role: membership.role,
    joined_at: membership.created_at.toISOString(),
  }));
}

export async function countOwners(store: Store, workspaceId: string): Promise<number> {
  return store.memberships.countDocuments({ workspace_id: workspaceId, role: 'owner' });
}

/** Adds a member; false when the account is one already (the primary key decides races). */
export async function addMember(store: Store, actor: Actor, workspaceId: string, accountId: string, role: Role): Promise<boolean> {
  try {
    await store.memberships.create({ _id: membershipId(workspaceId, accountId), workspace_id: workspaceId, account_id: accountId, role, created_at: new Date() });
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
  await recordAudit(store, actor, { action: 'member.added', workspaceId, target: { type: 'account', id: accountId }, details: { role } });
  return true;
}

export async function changeRole(store: Store, actor: Actor, workspaceId: string, accountId: string, from: Role, to: Role): Promise<void> {
  await store.memberships.updateOne({ _id: membershipId(workspaceId, accountId) }, { $set: { role: to } });
  await recordAudit(store, actor, { action: 'member.role_changed', workspaceId, target: { type: 'account', id: accountId }, details: { from, to } });
}

/** Ends a membership and revokes the member's keys at home in this workspace. */
export async function removeMember(store: Store, actor: Actor, workspaceId: string, accountId: string): Promise<void> {
  await store.memberships.deleteOne({ _id: membershipId(workspaceId, accountId) });
  const revokedKeys = await revokeKeysOfMember(store, workspaceId, accountId);
  await recordAudit(store, actor, { action: 'member.removed', workspaceId, target: { type: 'account', id: accountId }, details: { revoked_keys: revokedKeys } });
}

/** The target becomes owner first, then the caller steps down to admin: the workspace is never without an owner. */
export async function transferOwnership(store: Store, actor: Actor, workspaceId: string, newOwnerId: string): Promise<void> {
  await store.memberships.updateOne({ _id: membershipId(workspaceId, newOwnerId) }, { $set: { role: 'owner' } });
  await store.memberships.updateOne({ _id: membershipId(workspaceId, actor.accountId) }, { $set: { role: 'admin' } });
  await recordAudit(store, actor, {
    action: 'workspace.ownership_transferred',
    workspaceId,
    target: { type: 'account', id: newOwnerId },
    details: { previous_owner: actor.accountId },
  });
}
