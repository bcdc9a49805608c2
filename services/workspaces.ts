import { newId } from '../domain/ids';
import type { Role } from '../domain/roles';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { membershipId } from '../store/memberships';
import type { WorkspaceRow } from '../store/workspaces';
import { revokeKeysOfMember } from './api-keys';
import { recordAudit, type Actor } from './audit';
import { insufficientRole, RuleError, workspaceNotFound } from './errors';

/**
 * Workspaces, members and roles. Who owns a workspace is the workspace row's
 * `owner_ids`; every change of it is one compare-and-set of that row
 * (`changeOwners`), so the rules that keep a workspace owned (the last owner
 * is never demoted or removed, even by two owners at once) hold under
 * concurrency on MongoDB and on the embedded FerretDB build alike.
 */

export type WorkspaceWithRole = { workspace: WorkspaceRow & { _id: string }; role: Role };

/** A deletion that started this long ago and never finished no longer holds the workspace. */
const DELETION_LEASE_MS = 60_000;

const isActive = (workspace: WorkspaceRow, now = Date.now()) =>
  !workspace.deleted_at && !(workspace.deleting_at && workspace.deleting_at.getTime() > now - DELETION_LEASE_MS);

const roleOf = (workspace: Pick<WorkspaceRow, 'owner_ids'>, accountId: string, baseRole: 'admin' | 'member'): Role =>
  workspace.owner_ids.includes(accountId) ? 'owner' : baseRole;

/** The caller's membership of a workspace that is not deleted, with the caller's role; null otherwise. */
export async function membershipOf(
  store: Store,
  workspaceId: string,
  accountId: string,
): Promise<WorkspaceWithRole | null> {
  const [membership, workspace] = await Promise.all([
    store.memberships.findById(membershipId(workspaceId, accountId)).lean(),
    store.workspaces.findById(workspaceId).lean(),
  ]);
  if (!membership || !workspace || workspace.deleted_at) return null;
  return { workspace, role: roleOf(workspace, accountId, membership.role) };
}

export async function createWorkspace(
  store: Store,
  actor: Actor,
  name: string,
  id = newId('workspace'),
): Promise<WorkspaceWithRole> {
  const now = new Date();
  const workspace = (
    await store.workspaces.create({ _id: id, name, owner_ids: [actor.accountId], created_at: now })
  ).toObject();
  await store.memberships.create({
    _id: membershipId(id, actor.accountId),
    workspace_id: id,
    account_id: actor.accountId,
    role: 'admin',
    created_at: now,
  });
  await recordAudit(store, actor, { action: 'workspace.created', workspaceId: id, target: { type: 'workspace', id } });
  return { workspace, role: 'owner' };
}

export async function listWorkspaces(store: Store, accountId: string): Promise<WorkspaceWithRole[]> {
  const memberships = await store.memberships.find({ account_id: accountId }).sort({ created_at: 1 }).lean();
  const workspaces = await store.workspaces
    .find({ _id: { $in: memberships.map((membership) => membership.workspace_id) } })
    .lean();
  const byId = new Map(workspaces.map((workspace) => [workspace._id, workspace]));
  return memberships.flatMap((membership) => {
    const workspace = byId.get(membership.workspace_id);
    return workspace && !workspace.deleted_at
      ? [{ workspace, role: roleOf(workspace, accountId, membership.role) }]
      : [];
  });
}

/** The settings a workspace's owners and admins change. */
export interface WorkspaceSettings {
  name?: string;
  sandbox_email_pdf?: 'pdf' | 'facturx';
}

export async function updateWorkspace(store: Store, actor: Actor, workspaceId: string, settings: WorkspaceSettings) {
  const workspace = await store.workspaces
    .findOneAndUpdate({ _id: workspaceId, deleted_at: null }, { $set: settings }, { returnDocument: 'after' })
    .lean();
  await recordAudit(store, actor, {
    action: 'workspace.updated',
    workspaceId,
    target: { type: 'workspace', id: workspaceId },
    details: { fields: Object.keys(settings) },
  });
  return workspace;
}

/**
 * Changes the owner list by compare-and-set: read it, decide, write it only
 * if it is still what was read, else decide again on what is there now.
 * `decide` returns the new list, or throws to refuse.
 */
async function changeOwners(store: Store, workspaceId: string, decide: (owners: string[]) => string[]): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    // Under contention, a short random pause lets the writers spread out.
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    const workspace = await store.workspaces.findById(workspaceId).lean();
    if (!workspace || workspace.deleted_at) throw workspaceNotFound(workspaceId);
    const next = decide(workspace.owner_ids);
    if (next.length === 0)
      throw new RuleError(
        'last_owner',
        'A workspace needs an owner: make another member owner first (or transfer ownership).',
      );
    const { modifiedCount } = await store.workspaces.updateOne(
      { _id: workspaceId, owner_ids: workspace.owner_ids },
      { $set: { owner_ids: next } },
    );
    if (modifiedCount === 1 || JSON.stringify(next) === JSON.stringify(workspace.owner_ids)) return;
  }
  throw new Error(`the owners of ${workspaceId} kept changing; try again`);
}

async function requireMember(store: Store, workspaceId: string, accountId: string, param: string) {
  const membership = await store.memberships.findById(membershipId(workspaceId, accountId)).lean();
  if (!membership)
    throw new RuleError('member_not_found', `Account ${accountId} is not a member of this workspace.`, { param });
  return membership;
}

const requireOwnerFor = (callerRole: Role, action: string) => {
  if (callerRole !== 'owner') throw insufficientRole(callerRole, ['owner'], action);
};

export interface MemberView {
  account_id: string;
  email: string;
  name: string | null;
  role: Role;
  joined_at: Date;
}

export async function listMembers(
  store: Store,
  workspace: Pick<WorkspaceRow, 'owner_ids'> & { _id: string },
): Promise<MemberView[]> {
  const memberships = await store.memberships.find({ workspace_id: workspace._id }).sort({ created_at: 1 }).lean();
  const accounts = await store.accounts
    .find({ _id: { $in: memberships.map((membership) => membership.account_id) } })
    .lean();
  const byId = new Map(accounts.map((account) => [account._id, account]));
  return memberships.map((membership) => ({
    account_id: membership.account_id,
    email: byId.get(membership.account_id)?.email ?? '',
    name: byId.get(membership.account_id)?.name ?? null,
    role: roleOf(workspace, membership.account_id, membership.role),
    joined_at: membership.created_at,
  }));
}

/** The account an invitation names by id or by email; account_not_found when there is none (the person signs up first). */
export async function findInvitee(
  store: Store,
  target: { accountId?: string | undefined; email?: string | undefined },
) {
  const account = await store.accounts
    .findOne(target.accountId ? { _id: target.accountId } : { email_key: target.email!.toLowerCase() })
    .lean();
  if (!account) {
    throw new RuleError(
      'account_not_found',
      'No account matches; the person must sign up (POST /v1/signup) before being added.',
      {
        param: target.accountId ? 'account_id' : 'email',
      },
    );
  }
  return account;
}

/** Adds an existing account; only owners grant `owner`. */
export async function addMember(
  store: Store,
  actor: Actor,
  workspaceId: string,
  callerRole: Role,
  account: { _id: string },
  role: Role,
): Promise<string> {
  if (role === 'owner') requireOwnerFor(callerRole, 'grant the owner role');
  try {
    await store.memberships.create({
      _id: membershipId(workspaceId, account._id),
      workspace_id: workspaceId,
      account_id: account._id,
      role: role === 'owner' ? 'admin' : role,
      created_at: new Date(),
    });
  } catch (err) {
    if (isDuplicateKey(err))
      throw new RuleError('already_member', `Account ${account._id} is a member of this workspace already.`, {
        param: 'account_id',
      });
    throw err;
  }
  if (role === 'owner') await changeOwners(store, workspaceId, (owners) => [...new Set([...owners, account._id])]);
  await recordAudit(store, actor, {
    action: 'member.added',
    workspaceId,
    target: { type: 'account', id: account._id },
    details: { role },
  });
  return account._id;
}

/** Changes a member's role; demoting the last owner is refused. */
export async function changeRole(
  store: Store,
  actor: Actor,
  workspaceId: string,
  accountId: string,
  role: Role,
): Promise<void> {
  const membership = await requireMember(store, workspaceId, accountId, 'accountId');
  const workspace = await store.workspaces.findById(workspaceId).lean();
  const from = roleOf(workspace!, accountId, membership.role);
  if (from === role) return;
  if (role === 'owner') {
    await changeOwners(store, workspaceId, (owners) => [...new Set([...owners, accountId])]);
  } else {
    // The base role first: if the demotion is refused, the member is still an owner either way.
    await store.memberships.updateOne({ _id: membership._id }, { $set: { role } });
    await changeOwners(store, workspaceId, (owners) => owners.filter((owner) => owner !== accountId));
  }
  await recordAudit(store, actor, {
    action: 'member.role_changed',
    workspaceId,
    target: { type: 'account', id: accountId },
    details: { from, to: role },
  });
}

/** Ends a membership and revokes the member's keys at home here; only owners remove owners, never the last one. */
export async function removeMember(
  store: Store,
  actor: Actor,
  workspaceId: string,
  callerRole: Role,
  accountId: string,
): Promise<void> {
  const membership = await requireMember(store, workspaceId, accountId, 'accountId');
  const workspace = await store.workspaces.findById(workspaceId).lean();
  if (roleOf(workspace!, accountId, membership.role) === 'owner') {
    requireOwnerFor(callerRole, 'remove an owner');
    await changeOwners(store, workspaceId, (owners) => owners.filter((owner) => owner !== accountId));
  }
  // Keys first: a key that is not revoked vouches for its account's membership at home (api/public/access.ts).
  const revokedKeys = await revokeKeysOfMember(store, workspaceId, accountId);
  await store.memberships.deleteOne({ _id: membership._id });
  await recordAudit(store, actor, {
    action: 'member.removed',
    workspaceId,
    target: { type: 'account', id: accountId },
    details: { revoked_keys: revokedKeys },
  });
}

/** The target becomes owner and the caller admin, in one write of the owner list. */
export async function transferOwnership(
  store: Store,
  actor: Actor,
  workspaceId: string,
  newOwnerId: string,
): Promise<void> {
  await requireMember(store, workspaceId, newOwnerId, 'account_id');
  await store.memberships.updateOne({ _id: membershipId(workspaceId, actor.accountId) }, { $set: { role: 'admin' } });
  await changeOwners(store, workspaceId, (owners) => [
    ...new Set([...owners.filter((owner) => owner !== actor.accountId), newOwnerId]),
  ]);
  await recordAudit(store, actor, {
    action: 'workspace.ownership_transferred',
    workspaceId,
    target: { type: 'account', id: newOwnerId },
    details: { previous_owner: actor.accountId },
  });
}

/** Members of the workspace who own no other active workspace, and so would be left without one. */
async function membersLeftWithoutOwnedWorkspace(store: Store, workspaceId: string): Promise<string[]> {
  const members = await store.memberships.find({ workspace_id: workspaceId }).sort({ created_at: 1 }).lean();
  const stranded: string[] = [];
  for (const { account_id: accountId } of members) {
    const theirs = await store.memberships.find({ account_id: accountId }).sort({ created_at: 1 }).lean();
    const others = theirs.map((membership) => membership.workspace_id).filter((id) => id !== workspaceId);
    const owned = await store.workspaces.find({ _id: { $in: others } }).lean();
    if (!owned.some((workspace) => isActive(workspace) && workspace.owner_ids.includes(accountId)))
      stranded.push(accountId);
  }
  return stranded;
}

/**
 * Deletes a workspace unless a member would be left without a workspace they
 * own. The workspace is first marked as being deleted (a conditional write),
 * so two deletions checking each other's workspaces at once both see the
 * other as no longer owned: both refuse rather than both succeed.
 */
export async function deleteWorkspace(store: Store, actor: Actor, workspaceId: string): Promise<void> {
  const now = new Date();
  const marked = await store.workspaces.findOneAndUpdate(
    {
      _id: workspaceId,
      deleted_at: null,
      $or: [{ deleting_at: null }, { deleting_at: { $lt: new Date(now.getTime() - DELETION_LEASE_MS) } }],
    },
    { $set: { deleting_at: now } },
    { returnDocument: 'after' },
  );
  if (!marked) throw new RuleError('workspace_not_deletable', 'This workspace is being deleted already.');
  const stranded = await membersLeftWithoutOwnedWorkspace(store, workspaceId);
  if (stranded.length > 0) {
    await store.workspaces.updateOne({ _id: workspaceId, deleting_at: now }, { $set: { deleting_at: null } });
    throw new RuleError(
      'workspace_not_deletable',
      'Deleting this workspace would leave members without a workspace they own.',
      { details: { accounts: stranded } },
    );
  }
  await store.workspaces.updateOne({ _id: workspaceId }, { $set: { deleted_at: new Date() } });
  await revokeKeysOfMember(store, workspaceId);
  await store.memberships.deleteMany({ workspace_id: workspaceId });
  await recordAudit(store, actor, {
    action: 'workspace.deleted',
    workspaceId,
    target: { type: 'workspace', id: workspaceId },
  });
}
