import { idPattern } from '../../../domain/ids';
import { listAudit } from '../../../services/audit';
import {
  addMember,
  changeRole,
  createWorkspace,
  deleteWorkspace,
  findInvitee,
  listMembers,
  listWorkspaces,
  removeMember,
  transferOwnership,
  updateWorkspace,
} from '../../../services/workspaces';
import type { RateLimiter } from '../../../services/rate-limits';
import type { Store } from '../../../store';
import { requireMembership, requireRole } from '../access';
import { ApiError } from '../../http/errors';
import { z } from '../../contract/openapi';
import { enforceLimits } from '../rate-limiting';
import { decodeCursor, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { emailAddress, idParam, pageQuery, resourceId, role, text } from '../../contract/schemas';
import { invalidField, missingField, requireSomeField } from '../../http/validation';
import { auditEventView, auditPageSchema } from '../../contract/views/audit';
import { memberSchema, memberView, workspaceSchema, workspaceView } from '../../contract/views/workspaces';

const workspaceParams = z.object({ id: idParam('workspace', 'wsp_8bYt2LqX0mN4vR6sD1kP9wZc') });
const memberParams = workspaceParams.extend({ accountId: idParam('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh') });
const workspaceName = text(200).openapi({ example: 'Acme finance' });
const nameBody = z.object({ name: workspaceName }).strict();
const settingsBody = z
  .object({
    name: workspaceName.optional(),
    sandbox_email_pdf: workspaceSchema.shape.sandbox_email_pdf.optional(),
  })
  .strict()
  .openapi('UpdateWorkspaceRequest', {
    description:
      'The settings to change; those left out stay as they are (at least one, else 400 `no_fields_to_update`).',
  });

const inviteBody = z
  .object({
    account_id: resourceId('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh').optional(),
    email: emailAddress.optional(),
    role: role.default('member'),
  })
  .strict()
  .openapi('InviteMemberRequest', {
    description:
      'Name the account by `account_id` or by `email` (one is required, else 400 `missing_field`; if both are sent they must name the same account, else 400 `invalid_field`). ' +
      'Only existing accounts can be added: an email without an account gets 404 `account_not_found`; ask the person to sign up first. ' +
      'Only owners grant `owner`.',
    // Exactly one branch holds for any body (the second only without account_id), so generated clients get `account_id | email`.
    oneOf: [
      { type: 'object', properties: { account_id: { type: 'string' } }, required: ['account_id'] },
      {
        type: 'object',
        properties: { email: { type: 'string' } },
        required: ['email'],
        not: { required: ['account_id'] },
      },
    ],
  });

/** `priceUnits`: the default price of a live document (LIVE_DOCUMENT_PRICE), shown where a workspace has none of its own. */
export function workspaceRoutes(
  routes: RouteTable,
  store: Store,
  limiter: RateLimiter,
  invitesByEmailPerDay: number,
  priceUnits: number,
): void {
  createWorkspaceRoute(routes, store, priceUnits);
  listWorkspacesRoute(routes, store, priceUnits);
  getWorkspaceRoute(routes, store, priceUnits);
  updateWorkspaceRoute(routes, store, priceUnits);
  deleteWorkspaceRoute(routes, store);
  listMembersRoute(routes, store);
  addMemberRoute(routes, store, limiter, invitesByEmailPerDay);
  changeMemberRoleRoute(routes, store);
  removeMemberRoute(routes, store);
  transferOwnershipRoute(routes, store);
  listWorkspaceAuditRoute(routes, store);
}

function createWorkspaceRoute(routes: RouteTable, store: Store, priceUnits: number): void {
  routes.add({
    method: 'post',
    path: '/v1/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a workspace; the caller becomes its owner',
    tags: ['Workspaces'],
    body: nameBody,
    responses: { 201: { description: 'The new workspace', schema: workspaceSchema } },
    handler: async ({ auth, body }) => ({
      status: 201,
      body: workspaceView(await createWorkspace(store, auth.actor, body.name), priceUnits),
    }),
  });
}

function listWorkspacesRoute(routes: RouteTable, store: Store, priceUnits: number): void {
  routes.add({
    method: 'get',
    path: '/v1/workspaces',
    operationId: 'listWorkspaces',
    summary: 'Every workspace the caller belongs to, with the caller’s role',
    tags: ['Workspaces'],
    responses: {
      200: { description: 'Workspaces', schema: z.object({ data: z.array(workspaceSchema) }).openapi('WorkspaceList') },
    },
    handler: async ({ auth }) => ({
      status: 200,
      body: {
        data: (await listWorkspaces(store, auth.accountId)).map((workspace) => workspaceView(workspace, priceUnits)),
      },
    }),
  });
}

function getWorkspaceRoute(routes: RouteTable, store: Store, priceUnits: number): void {
  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}',
    operationId: 'getWorkspace',
    summary: 'A workspace the caller belongs to',
    tags: ['Workspaces'],
    params: workspaceParams,
    responses: { 200: { description: 'The workspace', schema: workspaceSchema } },
    errors: ['workspace_not_found'],
    handler: async ({ auth, params }) => ({
      status: 200,
      body: workspaceView(await requireMembership(store, auth, params.id), priceUnits),
    }),
  });
}

function updateWorkspaceRoute(routes: RouteTable, store: Store, priceUnits: number): void {
  routes.add({
    method: 'patch',
    path: '/v1/workspaces/{id}',
    operationId: 'updateWorkspace',
    summary: "Change a workspace's name or settings (owner or admin)",
    tags: ['Workspaces'],
    params: workspaceParams,
    body: settingsBody,
    responses: { 200: { description: 'The workspace', schema: workspaceSchema } },
    errors: ['insufficient_role', 'workspace_not_found', 'no_fields_to_update'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'change workspace settings');
      requireSomeField(body, settingsBody);
      await updateWorkspace(store, auth.actor, params.id, body);
      return { status: 200, body: workspaceView(await requireMembership(store, auth, params.id), priceUnits) };
    },
  });
}

function deleteWorkspaceRoute(routes: RouteTable, store: Store): void {
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
      await deleteWorkspace(store, auth.actor, params.id);
      return { status: 200, body: { deleted: true } };
    },
  });
}

function listMembersRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}/members',
    operationId: 'listMembers',
    summary: 'Members of a workspace with their roles',
    tags: ['Workspaces'],
    params: workspaceParams,
    responses: {
      200: { description: 'Members', schema: z.object({ data: z.array(memberSchema) }).openapi('WorkspaceMemberList') },
    },
    errors: ['workspace_not_found'],
    handler: async ({ auth, params }) => {
      const { workspace } = await requireMembership(store, auth, params.id);
      return { status: 200, body: { data: (await listMembers(store, workspace)).map(memberView) } };
    },
  });
}

function addMemberRoute(routes: RouteTable, store: Store, limiter: RateLimiter, invitesByEmailPerDay: number): void {
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
    errors: ['insufficient_role', 'workspace_not_found', 'account_not_found', 'already_member'],
    handler: async ({ auth, params, body, res }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'add members');
      if (!body.account_id && !body.email)
        throw missingField('account_id', 'Send account_id or email of the account to add.');
      // Whether an email has an account is not for anyone to probe at will.
      if (body.email && !body.account_id) {
        await enforceLimits(
          limiter,
          res,
          [
            {
              subject: `invite-by-email:${auth.accountId}`,
              limit: invitesByEmailPerDay,
              windowMs: 86_400_000,
              what: 'adding members by email per day',
            },
          ],
          { headers: false },
        );
      }
      const account = await findInvitee(store, { accountId: body.account_id, email: body.email });
      if (body.account_id && body.email && account.email_key !== body.email.toLowerCase()) {
        throw invalidField('email', 'account_id and email name different accounts; send one of them.');
      }
      const accountId = await addMember(store, auth.actor, params.id, callerRole, account, body.role);
      return { status: 201, body: { account_id: accountId, workspace_id: params.id, role: body.role } };
    },
  });
}

function changeMemberRoleRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'patch',
    path: '/v1/workspaces/{id}/members/{accountId}',
    operationId: 'changeMemberRole',
    summary: "Change a member's role (owner only; the last owner cannot be demoted)",
    tags: ['Workspaces'],
    params: memberParams,
    body: z.object({ role }).strict(),
    responses: { 200: { description: 'The new role', schema: z.object({ account_id: z.string(), role }) } },
    errors: ['last_owner', 'insufficient_role', 'workspace_not_found', 'member_not_found'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner'], 'change roles');
      await changeRole(store, auth.actor, params.id, params.accountId, body.role);
      return { status: 200, body: { account_id: params.accountId, role: body.role } };
    },
  });
}

function removeMemberRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'delete',
    path: '/v1/workspaces/{id}/members/{accountId}',
    operationId: 'removeMember',
    summary:
      'Remove a member (owner or admin; only owners remove owners, never the last); revokes their keys at home here',
    tags: ['Workspaces'],
    params: memberParams,
    responses: {
      200: { description: 'Removed', schema: z.object({ removed: z.literal(true), account_id: z.string() }) },
    },
    errors: ['last_owner', 'insufficient_role', 'workspace_not_found', 'member_not_found'],
    handler: async ({ auth, params }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner', 'admin'], 'remove members');
      await removeMember(store, auth.actor, params.id, callerRole, params.accountId);
      return { status: 200, body: { removed: true, account_id: params.accountId } };
    },
  });
}

function transferOwnershipRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'post',
    path: '/v1/workspaces/{id}/transfer-ownership',
    operationId: 'transferOwnership',
    summary: 'Make another member owner; the caller becomes admin (owner only)',
    tags: ['Workspaces'],
    params: workspaceParams,
    body: z.object({ account_id: resourceId('account', 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh') }).strict(),
    responses: {
      200: { description: 'Transferred', schema: z.object({ transferred: z.literal(true), new_owner: z.string() }) },
    },
    errors: ['insufficient_role', 'workspace_not_found', 'member_not_found', 'transfer_to_self'],
    handler: async ({ auth, params, body }) => {
      const { role: callerRole } = await requireMembership(store, auth, params.id);
      requireRole(callerRole, ['owner'], 'transfer ownership');
      if (body.account_id === auth.accountId)
        throw new ApiError('transfer_to_self', 'You own this workspace already; name another member.', {
          param: 'account_id',
        });
      await transferOwnership(store, auth.actor, params.id, body.account_id);
      return { status: 200, body: { transferred: true, new_owner: body.account_id } };
    },
  });
}

function listWorkspaceAuditRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'get',
    path: '/v1/workspaces/{id}/audit',
    operationId: 'listWorkspaceAudit',
    summary: 'Audit events of a workspace, newest first',
    tags: ['Workspaces'],
    params: workspaceParams,
    query: pageQuery(50),
    responses: { 200: { description: 'A page of audit events', schema: auditPageSchema } },
    errors: ['workspace_not_found'],
    handler: async ({ auth, params, query }) => {
      await requireMembership(store, auth, params.id);
      const page = await listAudit(
        store,
        [params.id],
        query.limit,
        decodeCursor(query.cursor, idPattern('auditEvent')),
      );
      return { status: 200, body: pageView(page, auditEventView) };
    },
  });
}
