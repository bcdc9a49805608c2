import type { Store } from '../../../store';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

import { idPattern } from '../../../domain/ids';
import type { SecretBox } from '../../../domain/secret-box';
import {
  findDelivery,
  listDeliveries,
  redeliver,
  sendTestEvent,
  wakeSoon,
  withAttempts,
  type FanOutDependencies,
} from '../../../services/webhooks/deliveries';
import {
  createWebhook,
  deleteWebhook,
  findWebhook,
  listWebhooks,
  rotateSecret,
  updateWebhook,
} from '../../../services/webhooks/registry';
import type { WebhookRow } from '../../../store/webhooks';
import type { AuthContext } from '../authentication';
import { requireMembership, requireRole } from '../access';
import { ApiError } from '../../http/errors';
import { z } from '../../contract/openapi';
import { decodeCursor, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { cursorParam, idParam, text } from '../../contract/schemas';
import { requireSomeField } from '../../http/validation';
import {
  creditsLowDataSchema,
  documentEventDataSchema,
  receivedEventDataSchema,
  responseEventDataSchema,
  webhookDisabledDataSchema,
} from '../../contract/views/events';
import { mlsReceivedDataSchema, responseReceivedDataSchema } from '../../contract/views/replies';
import {
  deliveryPageSchema,
  deliverySchema,
  deliveryView,
  webhookEventsSchema,
  webhookSchema,
  webhookView,
  webhookWithSecretSchema,
} from '../../contract/views/webhooks';

export interface WebhookRouteDependencies {
  fanOut: FanOutDependencies;
  secretBox: SecretBox;
  allowPrivateTargets: boolean;
}

const webhookParams = z.object({ id: idParam('webhook', 'whk_2Hk9LmQ4rT7vW0xY3zA6bC8d') });
const deliveryParams = webhookParams.extend({ deliveryId: idParam('webhookDelivery', 'whd_0mhx3k2a1bQ8sV7yT2nR4kLp') });
const url = z.string().max(2048).openapi({
  format: 'uri',
  description: '`https:` (live: required); a public address: loopback, private and link-local addresses are refused',
  example: 'https://billing.example.com/hooks/einvoice',
});

const createBody = z
  .object({ url, events: webhookEventsSchema, enabled: z.boolean().optional(), description: text(200).optional() })
  .strict()
  .openapi('CreateWebhookRequest');
const updateBody = z
  .object({
    url: url.optional(),
    events: webhookEventsSchema.optional(),
    enabled: z.boolean().optional(),
    description: text(200).nullable().optional(),
  })
  .strict()
  .openapi('UpdateWebhookRequest', {
    description: 'Only the fields sent change. At least one field.',
    minProperties: 1,
  });

const deliveryHeaders = z.object({
  'X-Peppol-Signature-V2': z.string().openapi({
    description:
      '`t=<timestamp>,v1=<hex>`: one `v1=` per active secret, newest first; `hex(HMAC_SHA256(secret, "<timestamp>.<raw body>"))`, the secret as UTF-8. ' +
      'Accept if any `v1=` matches (compare in constant time) and the timestamp is within 5 minutes.',
    example: 't=1795400000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  }),
  'X-Peppol-Signature': z
    .string()
    .openapi({ description: 'Legacy: `hex(HMAC_SHA256(newest secret, raw body))`; no replay protection' }),
  'X-Peppol-Timestamp': z.string().openapi({ description: 'Unix seconds of signing; equals `t=`' }),
  'X-Peppol-Event': z.string().openapi({ description: 'The event kind' }),
  'X-Peppol-Delivery-Id': z
    .string()
    .openapi({ description: 'The delivery (`whd_`): the same on every attempt; use it to drop duplicates' }),
});

const eventEnvelope = <T extends z.ZodType>(type: string, data: T, name: string) =>
  z
    .object({
      id: z.string().openapi({ example: 'evt_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
      type: z.literal(type),
      created_at: z.string().openapi({ format: 'date-time' }),
      data,
    })
    .openapi(name);

/**
 * The `webhooks` section of the description: what each delivery carries.
 * Verify the signature on the raw bytes before parsing; answer 2xx within
 * 10 seconds; anything else (or a redirect) is retried, 5 attempts in all.
 */
export function describeWebhookDeliveries(registry: OpenAPIRegistry): void {
  const payloads: [string, z.ZodType][] = [
    ...(['document.queued', 'document.sending', 'document.delivered', 'document.failed'] as const).map(
      (type) =>
        [
          type,
          eventEnvelope(
            type,
            documentEventDataSchema,
            `Document${type.slice('document.'.length).replace(/^./, (c) => c.toUpperCase())}Event`,
          ),
        ] as [string, z.ZodType],
    ),
    ['document.received', eventEnvelope('document.received', receivedEventDataSchema, 'DocumentReceivedEvent')],
    [
      'document.response_sent',
      eventEnvelope('document.response_sent', responseEventDataSchema, 'DocumentResponseSentEvent'),
    ],
    [
      'document.response_failed',
      eventEnvelope('document.response_failed', responseEventDataSchema, 'DocumentResponseFailedEvent'),
    ],
    [
      'document.response_received',
      eventEnvelope('document.response_received', responseReceivedDataSchema, 'DocumentResponseReceivedEvent'),
    ],
    [
      'document.mls_received',
      eventEnvelope('document.mls_received', mlsReceivedDataSchema, 'DocumentMlsReceivedEvent'),
    ],
    ['credits.low', eventEnvelope('credits.low', creditsLowDataSchema, 'CreditsLowEvent')],
    ['webhook.disabled', eventEnvelope('webhook.disabled', webhookDisabledDataSchema, 'WebhookDisabledEvent')],
    [
      'webhook.test',
      eventEnvelope(
        'webhook.test',
        z.object({ webhook_id: z.string(), message: z.string() }).openapi('WebhookTestData'),
        'WebhookTestEvent',
      ),
    ],
  ];
  for (const [type, body] of payloads) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      summary: `A \`${type}\` delivery to a registered webhook URL`,
      tags: ['Webhooks'],
      request: { headers: deliveryHeaders, body: { content: { 'application/json': { schema: body } } } },
      responses: {
        200: {
          description:
            'Any 2xx acknowledges the delivery; anything else, a redirect, or no answer within 10 s is retried with backoff, 5 attempts in all',
        },
      },
    });
  }
}

/** Another workspace's or environment's webhook, one deleted meanwhile, or none: 404, the same for all. */
const webhookNotFound = (webhookId: string) =>
  new ApiError('webhook_not_found', `No webhook ${webhookId} is visible to this API key.`, { param: 'id' });

const policy = (deps: WebhookRouteDependencies, auth: AuthContext) => ({
  environment: auth.environment,
  allowPrivate: deps.allowPrivateTargets,
});

/** A webhook of the caller's workspace and environment; anything else is 404. */
async function requireWebhook(store: Store, auth: AuthContext, webhookId: string, manage: boolean) {
  const { role } = await requireMembership(store, auth, auth.workspaceId);
  if (manage) requireRole(role, ['owner', 'admin'], 'manage webhooks');
  const webhook = idPattern('webhook').test(webhookId) ? await findWebhook(store, webhookId) : null;
  if (!webhook || webhook.workspace_id !== auth.workspaceId || webhook.environment !== auth.environment) {
    throw webhookNotFound(webhookId);
  }
  return webhook;
}

/** One of the webhook's deliveries, by its id; anything else is 404. */
async function requireDelivery(store: Store, webhook: WebhookRow, deliveryId: string) {
  const delivery = idPattern('webhookDelivery').test(deliveryId)
    ? await findDelivery(store, webhook._id, deliveryId)
    : null;
  if (!delivery)
    throw new ApiError('delivery_not_found', `Webhook ${webhook._id} has no delivery ${deliveryId}.`, {
      param: 'deliveryId',
    });
  return delivery;
}

export function webhookRoutes(routes: RouteTable, deps: WebhookRouteDependencies): void {
  createWebhookRoute(routes, deps);
  listWebhooksRoute(routes, deps);
  getWebhookRoute(routes, deps);
  updateWebhookRoute(routes, deps);
  deleteWebhookRoute(routes, deps);
  rotateWebhookSecretRoute(routes, deps);
  testWebhookRoute(routes, deps);
  listWebhookDeliveriesRoute(routes, deps);
  redeliverWebhookDeliveryRoute(routes, deps);
  getWebhookDeliveryRoute(routes, deps);
}

function createWebhookRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    summary: "Register a webhook for the key's workspace and environment (owner or admin)",
    description:
      'Answers the signing secret once: keep it; it is never shown again. Deliveries are signed with it (see the `webhooks` section of this description for the payloads and headers).',
    tags: ['Webhooks'],
    body: createBody,
    responses: { 201: { description: 'Registered; `secret` is shown this once', schema: webhookWithSecretSchema } },
    errors: ['insufficient_role', 'workspace_not_found', 'webhook_url_not_allowed'],
    handler: async ({ auth, body }) => {
      const { role } = await requireMembership(store, auth, auth.workspaceId);
      requireRole(role, ['owner', 'admin'], 'manage webhooks');
      const { webhook, secret } = await createWebhook(
        store,
        deps.secretBox,
        auth.actor,
        { workspaceId: auth.workspaceId, environment: auth.environment },
        body,
        policy(deps, auth),
      );
      return { status: 201, body: { ...webhookView(webhook), secret } };
    },
  });
}

function listWebhooksRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    summary: "Webhooks of the key's workspace and environment",
    tags: ['Webhooks'],
    responses: {
      200: {
        description: 'Webhooks (never their secrets)',
        schema: z.object({ data: z.array(webhookSchema) }).openapi('WebhookList'),
      },
    },
    errors: ['workspace_not_found'],
    handler: async ({ auth }) => {
      await requireMembership(store, auth, auth.workspaceId);
      return {
        status: 200,
        body: {
          data: (await listWebhooks(store, auth.workspaceId, auth.environment)).map((webhook) => webhookView(webhook)),
        },
      };
    },
  });
}

function getWebhookRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'get',
    path: '/v1/webhooks/{id}',
    operationId: 'getWebhook',
    summary: 'A webhook (never its secret)',
    tags: ['Webhooks'],
    params: webhookParams,
    responses: { 200: { description: 'The webhook', schema: webhookSchema } },
    errors: ['workspace_not_found', 'webhook_not_found'],
    handler: async ({ auth, params }) => ({
      status: 200,
      body: webhookView(await requireWebhook(store, auth, params.id, false)),
    }),
  });
}

function updateWebhookRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'patch',
    path: '/v1/webhooks/{id}',
    operationId: 'updateWebhook',
    summary: 'Change the URL, the events or whether it is enabled (owner or admin)',
    tags: ['Webhooks'],
    params: webhookParams,
    body: updateBody,
    responses: { 200: { description: 'The webhook', schema: webhookSchema } },
    errors: [
      'insufficient_role',
      'workspace_not_found',
      'webhook_not_found',
      'webhook_url_not_allowed',
      'no_fields_to_update',
    ],
    handler: async ({ auth, params, body }) => {
      const webhook = await requireWebhook(store, auth, params.id, true);
      requireSomeField(body, updateBody);
      const updated = await updateWebhook(store, auth.actor, webhook, body, policy(deps, auth));
      if (!updated) throw webhookNotFound(params.id);
      // Enabled (again): its pending deliveries go now, and a pause of its breaker ends.
      if (body.enabled === true) await wakeSoon(deps.fanOut, updated._id, true);
      return { status: 200, body: webhookView(updated) };
    },
  });
}

function deleteWebhookRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'delete',
    path: '/v1/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook (owner or admin); deliveries still pending are not sent',
    tags: ['Webhooks'],
    params: webhookParams,
    responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.literal(true), id: z.string() }) } },
    errors: ['insufficient_role', 'workspace_not_found', 'webhook_not_found'],
    handler: async ({ auth, params }) => {
      const webhook = await requireWebhook(store, auth, params.id, true);
      if (!(await deleteWebhook(store, auth.actor, webhook))) throw webhookNotFound(params.id);
      return { status: 200, body: { deleted: true, id: params.id } };
    },
  });
}

function rotateWebhookSecretRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'post',
    path: '/v1/webhooks/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Mint a new signing secret, shown once; the previous one keeps signing for 24 hours (owner or admin)',
    description:
      'During the overlap `X-Peppol-Signature-V2` carries one `v1=` per active secret, newest first; the legacy `X-Peppol-Signature` uses the new secret at once. ' +
      'A second rotation within the overlap drops the oldest secret immediately: at most two are active.',
    tags: ['Webhooks'],
    params: webhookParams,
    responses: {
      200: {
        description: 'The new secret, shown this once',
        schema: webhookWithSecretSchema
          .extend({ previous_secret_expires_at: z.string().openapi({ format: 'date-time' }) })
          .openapi('RotatedWebhookSecret'),
      },
    },
    errors: ['insufficient_role', 'workspace_not_found', 'webhook_not_found'],
    handler: async ({ auth, params }) => {
      const webhook = await requireWebhook(store, auth, params.id, true);
      const rotated = await rotateSecret(store, deps.secretBox, auth.actor, webhook);
      if (!rotated) throw webhookNotFound(params.id);
      return {
        status: 200,
        body: {
          ...webhookView(rotated.webhook),
          secret: rotated.secret,
          previous_secret_expires_at: rotated.previousExpiresAt.toISOString(),
        },
      };
    },
  });
}

function testWebhookRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'post',
    path: '/v1/webhooks/{id}/test',
    operationId: 'testWebhook',
    summary: 'Send a synthetic `webhook.test` event, delivered and signed like any other',
    tags: ['Webhooks'],
    params: webhookParams,
    responses: { 202: { description: 'The delivery, on its way', schema: deliverySchema } },
    errors: ['insufficient_role', 'workspace_not_found', 'webhook_not_found'],
    handler: async ({ auth, params }) => {
      const webhook = await requireWebhook(store, auth, params.id, true);
      return { status: 202, body: deliveryView({ ...(await sendTestEvent(deps.fanOut, webhook)), attempts: [] }) };
    },
  });
}

function listWebhookDeliveriesRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's deliveries, newest first, with every attempt; `status=failed` is the dead-letter queue",
    tags: ['Webhooks'],
    params: webhookParams,
    query: z
      .object({
        status: z.enum(['pending', 'succeeded', 'failed']).optional(),
        limit: z.coerce.number().int().min(1).max(100).default(20).openapi({ description: '1 to 100, default 20' }),
        cursor: cursorParam,
      })
      .strict(),
    responses: { 200: { description: 'A page of deliveries', schema: deliveryPageSchema } },
    errors: ['workspace_not_found', 'webhook_not_found'],
    handler: async ({ auth, params, query }) => {
      const webhook = await requireWebhook(store, auth, params.id, false);
      const page = await listDeliveries(store, webhook._id, {
        status: query.status,
        limit: query.limit,
        before: decodeCursor(query.cursor, idPattern('webhookDelivery')),
      });
      return { status: 200, body: pageView(page, deliveryView) };
    },
  });
}

function redeliverWebhookDeliveryRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'post',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    operationId: 'redeliverWebhookDelivery',
    summary:
      'Send a settled delivery again (failed, or succeeded and wanted again; same id, same body, freshly signed), with 5 new attempts (owner or admin)',
    tags: ['Webhooks'],
    params: deliveryParams,
    responses: { 202: { description: 'The delivery, pending again', schema: deliverySchema } },
    errors: [
      'insufficient_role',
      'workspace_not_found',
      'webhook_not_found',
      'delivery_not_found',
      'delivery_not_redeliverable',
    ],
    handler: async ({ auth, params }) => {
      const delivery = await requireDelivery(
        store,
        await requireWebhook(store, auth, params.id, true),
        params.deliveryId,
      );
      const [reopened] = await withAttempts(store, [await redeliver(deps.fanOut, delivery)]);
      return { status: 202, body: deliveryView(reopened!) };
    },
  });
}

function getWebhookDeliveryRoute(routes: RouteTable, deps: WebhookRouteDependencies): void {
  const { store } = deps.fanOut;
  routes.add({
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}',
    operationId: 'getWebhookDelivery',
    summary:
      'One delivery, by its `whd_` id (the `X-Peppol-Delivery-Id` header), with every attempt and when the next is due',
    tags: ['Webhooks'],
    params: deliveryParams,
    responses: { 200: { description: 'The delivery', schema: deliverySchema } },
    errors: ['workspace_not_found', 'webhook_not_found', 'delivery_not_found'],
    handler: async ({ auth, params }) => {
      const delivery = await requireDelivery(
        store,
        await requireWebhook(store, auth, params.id, false),
        params.deliveryId,
      );
      const [found] = await withAttempts(store, [delivery]);
      return { status: 200, body: deliveryView(found!) };
    },
  });
}
