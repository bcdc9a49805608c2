import { idPattern } from '../../../domain/ids';
import { findAccount } from '../../../services/accounts';
import { activeKeysOf, issueApiKey, revokeApiKey } from '../../../services/api-keys';
import { listAudit } from '../../../services/audit';
import { usageReport, type UsageCounters } from '../../../services/usage';
import { listWorkspaces } from '../../../services/workspaces';
import type { Store } from '../../../store';
import { companyNotFound, requireCompany, requireMembership, requireRole } from '../access';
import { ApiError, keyLimited } from '../../http/errors';
import { z } from '../../contract/openapi';
import { decodeCursor, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { pageQuery, resourceId, text } from '../../contract/schemas';
import { accountSchema, accountView, createdKeySchema, usageSchema } from '../../contract/views/accounts';
import { auditEventView, auditPageSchema } from '../../contract/views/audit';

const createKeyBody = z
  .object({
    label: text(100).optional(),
    sandbox: z.boolean().default(true).openapi({ description: 'false makes a ps_live_ key' }),
    workspace_id: resourceId('workspace', 'wsp_…').optional().openapi({
      description: "Home workspace of the key; default: the calling key's. Caller must be owner or admin there.",
    }),
    company_id: resourceId('company', 'com_…')
      .optional()
      .openapi({ description: 'Limits the key to one company of that workspace' }),
  })
  .strict()
  .openapi('CreateApiKeyRequest', {
    description:
      'A key limited to one company can create only keys limited to that same company, in its own workspace and environment.',
  });

/** The account's usage, with the counts this process still holds written first. */
async function flushedUsageReport(store: Store, usageCounters: UsageCounters, accountId: string, days: number) {
  await usageCounters.flush();
  return usageReport(store, accountId, days);
}

export function accountRoutes(routes: RouteTable, store: Store, usageCounters: UsageCounters): void {
  getAccountRoute(routes, store, usageCounters);
  createApiKeyRoute(routes, store);
  revokeApiKeyRoute(routes, store);
  listAccountAuditRoute(routes, store);
  getAccountUsageRoute(routes, store, usageCounters);
}

/** A report includes every call this process has counted so far (its writes are batched). */
function getAccountRoute(routes: RouteTable, store: Store, usageCounters: UsageCounters): void {
  routes.add({
    method: 'get',
    path: '/v1/account',
    operationId: 'getAccount',
    summary: 'The calling account: profile, active key prefixes, usage of the last 30 days',
    description: 'A key limited to one company lists only the keys limited to that company.',
    tags: ['Account'],
    limitedKeys: true,
    responses: { 200: { description: 'The account', schema: accountSchema } },
    handler: async ({ auth }) => {
      const [account, keys, usage] = await Promise.all([
        findAccount(store, auth.accountId),
        activeKeysOf(store, auth.accountId),
        flushedUsageReport(store, usageCounters, auth.accountId, 30),
      ]);
      const visibleKeys = auth.companyId ? keys.filter((key) => key.company_id === auth.companyId) : keys;
      return { status: 200, body: accountView(account!, visibleKeys, usage) };
    },
  });
}

function createApiKeyRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'post',
    path: '/v1/account/keys',
    operationId: 'createApiKey',
    summary: 'Create an API key (owner or admin of its home workspace)',
    description: 'The full key is in this response only. To rotate, create the new key first, then revoke the old one.',
    tags: ['Account'],
    limitedKeys: true,
    body: createKeyBody,
    responses: { 201: { description: 'The new key', schema: createdKeySchema } },
    errors: ['insufficient_role', 'workspace_not_found', 'company_not_found', 'key_limited', 'key_limit_reached'],
    handler: async ({ auth, body }) => {
      const workspaceId = body.workspace_id ?? auth.workspaceId;
      const environment = body.sandbox ? 'sandbox' : 'live';
      if (
        auth.companyId &&
        (body.company_id !== auth.companyId || workspaceId !== auth.workspaceId || environment !== auth.environment)
      ) {
        throw keyLimited(
          auth.companyId,
          'it can create only keys limited to that company, in its workspace and environment',
        );
      }
      const { role } = await requireMembership(store, auth, workspaceId);
      requireRole(role, ['owner', 'admin'], 'create API keys');
      if (body.company_id) {
        const { company } = await requireCompany(store, auth, body.company_id, 'company_id');
        if (company.workspace_id !== workspaceId) {
          throw companyNotFound(body.company_id, 'company_id');
        }
      }
      const key = await issueApiKey(store, auth.actor, {
        accountId: auth.accountId,
        workspaceId,
        environment,
        companyId: body.company_id ?? null,
        label: body.label ?? '',
      });
      return { status: 201, body: key };
    },
  });
}

function revokeApiKeyRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'delete',
    path: '/v1/account/keys/{prefix}',
    operationId: 'revokeApiKey',
    summary: 'Revoke one of your API keys by its prefix; effective on the next request',
    description: 'A key limited to one company can revoke only keys limited to that company.',
    tags: ['Account'],
    limitedKeys: true,
    params: z.object({
      prefix: z
        .string()
        .openapi({ example: 'ps_test_AbC1234...', pattern: '^ps_(test|live)_[0-9A-Za-z]{7}\\.\\.\\.$' }),
    }),
    responses: { 200: { description: 'Revoked', schema: z.object({ revoked: z.literal(true), prefix: z.string() }) } },
    errors: ['api_key_not_found'],
    handler: async ({ auth, params }) => {
      if (!(await revokeApiKey(store, auth.actor, params.prefix, auth.companyId))) {
        throw new ApiError('api_key_not_found', `No active key of this account has the prefix ${params.prefix}.`, {
          param: 'prefix',
        });
      }
      return { status: 200, body: { revoked: true, prefix: params.prefix } };
    },
  });
}

function listAccountAuditRoute(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'get',
    path: '/v1/account/audit',
    operationId: 'listAccountAudit',
    summary: 'Audit events of every workspace the account is a member of, newest first',
    tags: ['Account'],
    query: pageQuery(50),
    responses: { 200: { description: 'A page of audit events', schema: auditPageSchema } },
    handler: async ({ auth, query }) => {
      const workspaceIds = (await listWorkspaces(store, auth.accountId)).map(({ workspace }) => workspace._id);
      const page = await listAudit(
        store,
        workspaceIds,
        query.limit,
        decodeCursor(query.cursor, idPattern('auditEvent')),
      );
      return { status: 200, body: pageView(page, auditEventView) };
    },
  });
}

function getAccountUsageRoute(routes: RouteTable, store: Store, usageCounters: UsageCounters): void {
  routes.add({
    method: 'get',
    path: '/v1/account/usage',
    operationId: 'getAccountUsage',
    summary: 'API calls and documents sent per UTC day, with period totals',
    tags: ['Account'],
    query: z
      .object({
        days: z.coerce.number().int().min(1).max(90).default(30).openapi({ description: '1 to 90, default 30' }),
      })
      .strict(),
    responses: { 200: { description: 'Daily usage, oldest day first', schema: usageSchema } },
    handler: async ({ auth, query }) => ({
      status: 200,
      body: await flushedUsageReport(store, usageCounters, auth.accountId, query.days),
    }),
  });
}
