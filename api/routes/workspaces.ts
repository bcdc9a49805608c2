import type { Role } from '../../domain/roles';
import {
  addMember,
  changeRole,
  countOwners,
  createWorkspace,
  deleteWorkspace,
  listMembers,
  listWorkspaces,
  membersLeftWithoutOwnedWorkspace,
  removeMember,
  renameWorkspace,
  transferOwnership,
  workspaceView,
} from '../../services/workspaces';
import type { Store } from '../../store';
import { membershipId } from '../../store/memberships';
import { requireMembership, requireRole } from '../access';
import { ApiError } from '../errors';
import { z } from '../openapi';
import type { RouteTable } from '../route';
import { emailAddress, pageQuery, resourceId, role, text } from '../schemas';
import { invalidField, missingField } from '../validation';
import { auditPage, auditPageSchema } from './audit-pages';

const workspaceSchema = z
  .object({
    id: z.string().openapi({ example: 'wsp_8bYt2LqX0mN4vR6sD1kP9wZc' }),
    name: z.string(),
    role: role.openapi({ description: "The caller's role" }),
    mode: z.enum(['sandbox', 'live']).openapi({ description: '`sandbox` until the workspace is verified (KYC approved), then `live`' }),
    credit_balance: z.string().openapi({ description: 'Prepaid credits in EUR, as a decimal string', example: '0.00' }),
    suspended: z.boolean().openapi({ description: 'A suspended workspace cannot send on the live network' }),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Workspace');

const memberSchema = z
  .object({ account_id: z.string(), email: z.string(), name: z.string().nullable(), role, joined_at: z.string().openapi({ format: 'date-time' }) })
  .openapi('WorkspaceMember');

const workspaceParams = z.object({ id: resourceId('workspace', 'wsp_8bYt2LqX0mN4vR6sD1kP9wZc') });
const memberParams = workspaceParams.extend({ accountId: resourceId('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh') });
const nameBody = z.object({ name: text(200).openapi({ example: 'Acme finance' }) }).strict();

const inviteBody = z
  .object({
    account_id: resourceId('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh').optional(),
    email: emailAddress.optional(),
    role: role.default('member'),
  })
  .strict()
  .openapi('InviteMemberRequest', {
    description:
      'Name the account by `account_id` or by `email` (one is required; if both are sent they must name the same account). ' +
      'Only existing accounts can be added: an email without an account gets 404 `account_not_found`; ask the person to sign up first.',
  });

export function workspaceRoutes(routes: RouteTable, store: Store): void {
  const memberOf = async (workspaceId: string, accountId: string, param = 'accountId') => {
    const membership = await store.memberships.findById(membershipId(workspaceId, accountId)).lean();
    if (!membership) throw new ApiError('member_not_found', `Account ${accountId} is not a member of this workspace.`, { param });
    return membership.role;
  };
  const refuseLastOwner = async (workspaceId: string, currentRole: Role) => {
    if (currentRole === 'owner' && (await countOwners(store, workspaceId)) <= 1) {
      throw new ApiError('last_owner', 'A workspace needs an owner: make another member owner first (or transfer ownership).');
    }
  };

  routes.add({
    method: 'post',
    path: '/v1/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a workspace; the caller becomes its owner',
    tags: ['Workspaces'],
    body: nameBody,
    responses: { 201: { description: 'The new workspace', schema: workspaceSchema } },
    errors: ['missing_field', 'invalid_field'],
    handler: async ({ auth, body }) => ({ status: 201, body: await createWorkspace(store, auth.actor, body.name) }),
  });

  routes.add({
    method: 'get',
    path: '/v1/workspaces',
    operationId: 'listWorkspaces',
    summary: 'Every workspace the caller belongs to, with the caller’s role',
    tags: ['Workspaces'],
    responses: { 200: { description: 'Workspaces', schema: z.object({ data: z.array(workspaceSchema) }) } },
    handler: async ({ auth }) => ({ status: 200, body: { data: await listWorkspaces(store, auth.accountId) } }),
  });

  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}',
    operationId: 'getWorkspace',
    summary: 'A workspace the caller belongs to',
    tags: ['Workspaces'],
    params: workspaceParams,
    responses: { 200: { description: 'The workspace', schema: workspaceSchema } },
    errors: ['workspace_not_found', 'invalid_field'],
    handler: async ({ auth, params }) => {
      const { workspace, role: callerRole } = await requireMembership(store, auth, params.id);
      return { status: 200, body: workspaceView(workspace, callerRole) };
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/workspaces/{id}',
    operationId: 'updateWorkspace',
    summary: 'Rename a workspace (owner or admin)',
    tags: ['Workspaces'],
    params: workspaceParams,
    body: nameBody,
    responses: { 200: { description: 'The workspace', schema: workspaceSchema } },
    errors: ['missing_field', 'invalid_field', 'insufficient_role', 'workspace_not_found'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'change workspace settings');
      return { status: 200, body: await renameWorkspace(store, auth.actor, params.id, body.name, callerRole) };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v1/workspaces/{id}',
    operationId: 'deleteWorkspace',
    summary: 'Delete a workspace (owner only)',
    description:
      'Refused with 400 `workspace_not_deletable` when a member would be left without a workspace they own (`details.accounts` names them). ' +
      'Memberships end and every API key at home in the workspace is revoked.',
    tags: ['Workspaces'],
    params: workspaceParams,
    responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.boolean() }) } },
    errors: ['workspace_not_deletable', 'insufficient_role', 'workspace_not_found'],
    handler: async ({ auth, params }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner'], 'delete a workspace');
      const stranded = await membersLeftWithoutOwnedWorkspace(store, params.id);
      if (stranded.length > 0) {
        throw new ApiError('workspace_not_deletable', 'Deleting this workspace would leave members without a workspace they own.', {
          details: { accounts: stranded },
        });
      }
      await deleteWorkspace(store, auth.actor, params.id);
      return { status: 200, body: { deleted: true } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}/members',
    operationId: 'listMembers',
    summary: 'Members of a workspace with their roles',
    tags: ['Workspaces'],
    params: workspaceParams,
    responses: { 200: { description: 'Members', schema: z.object({ data: z.array(memberSchema) }) } },
    errors: ['workspace_not_found'],
    handler: async ({ auth, params }) => {
      await requireMembership(store, auth, params.id);
      return { status: 200, body: { data: await listMembers(store, params.id) } };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/workspaces/{id}/members',
    operationId: 'addMember',
    summary: 'Add an existing account to the workspace (owner or admin; only owners grant `owner`)',
    tags: ['Workspaces'],
    params: workspaceParams,
    body: inviteBody,
    responses: {
      201: {
        description: 'Added',
        schema: z.object({ account_id: z.string(), workspace_id: z.string(), role }).openapi('MemberAdded'),
      },
    },
    errors: ['missing_field', 'invalid_field', 'insufficient_role', 'workspace_not_found', 'account_not_found', 'already_member'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'add members');
      if (body.role === 'owner') requireRole(callerRole, ['owner'], 'grant the owner role');
      if (!body.account_id && !body.email) throw missingField('account_id', 'Send account_id or email of the account to add.');
      const account = await store.accounts
        .findOne(body.account_id ? { _id: body.account_id } : { email_key: body.email!.toLowerCase() })
        .lean();
      if (!account) {
        throw new ApiError('account_not_found', 'No account matches; the person must sign up (POST /v1/signup) before being added.', {
          param: body.account_id ? 'account_id' : 'email',
        });
      }
      if (body.account_id && body.email && account.email_key !== body.email.toLowerCase()) {
        throw invalidField('email', 'account_id and email name different accounts; send one of them.');
      }
      if (!(await addMember(store, auth.actor, params.id, account._id, body.role))) {
        throw new ApiError('already_member', `Account ${account._id} is a member of this workspace already.`, { param: 'account_id' });
      }
      return { status: 201, body: { account_id: account._id, workspace_id: params.id, role: body.role } };
    },
  });

  routes.add({
    method: 'patch',
    path: '/v1/workspaces/{id}/members/{accountId}',
    operationId: 'changeMemberRole',
    summary: "Change a member's role (owner only)",
    tags: ['Workspaces'],
    params: memberParams,
    body: z.object({ role }).strict(),
    responses: { 200: { description: 'The new role', schema: z.object({ account_id: z.string(), role }) } },
    errors: ['missing_field', 'invalid_field', 'last_owner', 'insufficient_role', 'workspace_not_found', 'member_not_found'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner'], 'change roles');
      const currentRole = await memberOf(params.id, params.accountId);
      if (currentRole !== body.role) {
        if (body.role !== 'owner') await refuseLastOwner(params.id, currentRole);
        await changeRole(store, auth.actor, params.id, params.accountId, currentRole, body.role);
      }
      return { status: 200, body: { account_id: params.accountId, role: body.role } };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v1/workspaces/{id}/members/{accountId}',
    operationId: 'removeMember',
    summary: 'Remove a member (owner or admin; only owners remove owners); revokes their keys at home here',
    tags: ['Workspaces'],
    params: memberParams,
    responses: { 200: { description: 'Removed', schema: z.object({ removed: z.literal(true), account_id: z.string() }) } },
    errors: ['last_owner', 'insufficient_role', 'workspace_not_found', 'member_not_found'],
    handler: async ({ auth, params }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'remove members');
      const targetRole = await memberOf(params.id, params.accountId);
      if (targetRole === 'owner') requireRole(callerRole, ['owner'], 'remove an owner');
      await refuseLastOwner(params.id, targetRole);
      await removeMember(store, auth.actor, params.id, params.accountId);
      return { status: 200, body: { removed: true, account_id: params.accountId } };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/workspaces/{id}/transfer-ownership',
    operationId: 'transferOwnership',
    summary: 'Make another member owner; the caller becomes admin (owner only)',
    tags: ['Workspaces'],
    params: workspaceParams,
    body: z.object({ account_id: resourceId('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh') }).strict(),
    responses: { 200: { description: 'Transferred', schema: z.object({ transferred: z.literal(true), new_owner: z.string() }) } },
    errors: ['missing_field', 'invalid_field', 'insufficient_role', 'workspace_not_found', 'member_not_found'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner'], 'transfer ownership');
      if (body.account_id === auth.accountId) throw invalidField('account_id', 'You own this workspace already; name another member.');
      await memberOf(params.id, body.account_id, 'account_id');
      await transferOwnership(store, auth.actor, params.id, body.account_id);
      return { status: 200, body: { transferred: true, new_owner: body.account_id } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}/audit',
    operationId: 'listWorkspaceAudit',
    summary: 'Audit events of a workspace, newest first',
    tags: ['Workspaces'],
    params: workspaceParams,
    query: pageQuery(50),
    responses: { 200: { description: 'A page of audit events', schema: auditPageSchema } },
    errors: ['invalid_field', 'workspace_not_found'],
    handler: async ({ auth, params, query }) => {
      await requireMembership(store, auth, params.id);
      return { status: 200, body: await auditPage(store, [params.id], query) };
    },
  });
}
