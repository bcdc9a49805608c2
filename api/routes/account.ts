import { issueApiKey, revokeApiKey } from '../../services/api-keys';
import { usageReport } from '../../services/usage';
import type { Store } from '../../store';
import { requireCompany, requireMembership, requireRole } from '../access';
import { ApiError } from '../errors';
import { z } from '../openapi';
import type { RouteTable } from '../route';
import { pageQuery, resourceId, text } from '../schemas';
import { auditPage, auditPageSchema } from './audit-pages';

const keySummary = z
  .object({
    prefix: z.string().openapi({ example: 'ps_test_AbC1234...' }),
    label: z.string(),
    sandbox: z.boolean(),
    workspace_id: z.string(),
    company_id: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ApiKeySummary');

const accountSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    created_at: z.string().openapi({ format: 'date-time' }),
    api_keys: z.array(keySummary).openapi({ description: 'Active keys, by prefix only' }),
    usage: z
      .object({ period_days: z.number().int(), api_calls: z.number().int(), documents_sent: z.number().int() })
      .openapi({ description: 'Totals of the last 30 days' }),
  })
  .openapi('Account');

const createKeyBody = z
  .object({
    label: text(100).optional(),
    sandbox: z.boolean().default(true).openapi({ description: 'false makes a ps_live_ key' }),
    workspace_id: resourceId('workspace', 'wsp_…')
      .optional()
      .openapi({ description: "Home workspace of the key; default: the calling key's. Caller must be owner or admin there." }),
    company_id: resourceId('company', 'com_…').optional().openapi({ description: 'Limits the key to one company of that workspace' }),
  })
  .strict()
  .openapi('CreateApiKeyRequest');

const createdKey = z
  .object({
    api_key: z.string().openapi({ description: 'The full key, shown once' }),
    prefix: z.string(),
    sandbox: z.boolean(),
    company_id: z.string().nullable(),
    label: z.string(),
    workspace_id: z.string(),
  })
  .openapi('CreatedApiKey');

const usageSchema = z
  .object({
    days: z.number().int(),
    from: z.string().openapi({ format: 'date' }),
    to: z.string().openapi({ format: 'date' }),
    totals: z.object({ api_calls: z.number().int(), documents_sent: z.number().int() }),
    data: z.array(z.object({ date: z.string().openapi({ format: 'date' }), api_calls: z.number().int(), documents_sent: z.number().int() })),
  })
  .openapi('Usage');

export function accountRoutes(routes: RouteTable, store: Store): void {
  routes.add({
    method: 'get',
    path: '/v1/account',
    operationId: 'getAccount',
    summary: 'The calling account: profile, active key prefixes, usage of the last 30 days',
    tags: ['Account'],
    responses: { 200: { description: 'The account', schema: accountSchema } },
    handler: async ({ auth }) => {
      const [account, keys, usage] = await Promise.all([
        store.accounts.findById(auth.accountId).lean(),
        store.apiKeys.find({ account_id: auth.accountId, revoked_at: null }).sort({ created_at: 1 }).lean(),
        usageReport(store, auth.accountId, 30),
      ]);
      return {
        status: 200,
        body: {
          id: account!._id,
          email: account!.email,
          name: account!.name ?? null,
          status: account!.status,
          created_at: account!.created_at.toISOString(),
          api_keys: keys.map((key) => ({
            prefix: key.prefix,
            label: key.label,
            sandbox: key.sandbox,
            workspace_id: key.workspace_id,
            company_id: key.company_id ?? null,
            created_at: key.created_at.toISOString(),
          })),
          usage: { period_days: usage.days, ...usage.totals },
        },
      };
    },
  });

  routes.add({
    method: 'post',
    path: '/v1/account/keys',
    operationId: 'createApiKey',
    summary: 'Create an API key (owner or admin of its home workspace)',
    description: 'The full key is in this response only. To rotate, create the new key first, then revoke the old one.',
    tags: ['Account'],
    body: createKeyBody,
    responses: { 201: { description: 'The new key', schema: createdKey } },
    errors: ['invalid_field', 'insufficient_role', 'workspace_not_found', 'company_not_found'],
    handler: async ({ auth, body }) => {
      const workspaceId = body.workspace_id ?? auth.workspaceId;
      const { role } = await requireMembership(store, auth, workspaceId);
      requireRole(role, ['owner', 'admin'], 'create API keys');
      if (body.company_id) {
        const { company } = await requireCompany(store, auth, body.company_id, 'company_id');
        if (company.workspace_id !== workspaceId) {
          throw new ApiError('company_not_found', `Company ${body.company_id} is not in workspace ${workspaceId}.`, { param: 'company_id' });
        }
      }
      const key = await issueApiKey(store, auth.actor, {
        accountId: auth.accountId,
        workspaceId,
        environment: body.sandbox ? 'sandbox' : 'live',
        companyId: body.company_id ?? null,
        label: body.label ?? '',
      });
      return { status: 201, body: key };
    },
  });

  routes.add({
    method: 'delete',
    path: '/v1/account/keys/{prefix}',
    operationId: 'revokeApiKey',
    summary: 'Revoke one of your API keys by its prefix; effective on the next request',
    tags: ['Account'],
    params: z.object({ prefix: z.string().max(20).openapi({ example: 'ps_test_AbC1234...' }) }),
    responses: { 200: { description: 'Revoked', schema: z.object({ revoked: z.literal(true), prefix: z.string() }) } },
    errors: ['api_key_not_found'],
    handler: async ({ auth, params }) => {
      if (!(await revokeApiKey(store, auth.actor, params.prefix))) {
        throw new ApiError('api_key_not_found', `No active key of this account has the prefix ${params.prefix}.`, { param: 'prefix' });
      }
      return { status: 200, body: { revoked: true, prefix: params.prefix } };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/account/audit',
    operationId: 'listAccountAudit',
    summary: 'Audit events of every workspace the account is a member of, newest first',
    tags: ['Account'],
    query: pageQuery(50),
    responses: { 200: { description: 'A page of audit events', schema: auditPageSchema } },
    errors: ['invalid_field'],
    handler: async ({ auth, query }) => {
      const memberships = await store.memberships.find({ account_id: auth.accountId }).lean();
      return { status: 200, body: await auditPage(store, memberships.map((membership) => membership.workspace_id), query) };
    },
  });

  routes.add({
    method: 'get',
    path: '/v1/account/usage',
    operationId: 'getAccountUsage',
    summary: 'API calls and documents sent per UTC day, with period totals',
    tags: ['Account'],
    query: z.object({ days: z.coerce.number().int().min(1).max(90).default(30).openapi({ description: '1 to 90, default 30' }) }).strict(),
    responses: { 200: { description: 'Daily usage, oldest day first', schema: usageSchema } },
    errors: ['invalid_field'],
    handler: async ({ auth, query }) => ({ status: 200, body: await usageReport(store, auth.accountId, query.days) }),
  });
}
