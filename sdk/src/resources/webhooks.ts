import type { Client } from 'openapi-fetch';

import { unwrap } from '../call';
import type { JsonBody, ListQuery } from '../operation-types';
import { paginate } from '../pagination';
import type { paths } from '../schema';

const byId = (id: string) => ({ params: { path: { id } } });

export function webhooks(api: Client<paths>) {
  return {
    /** Answers the signing secret once: keep it for verifyWebhook. */
    create: (body: JsonBody<'createWebhook'>) => unwrap(api.POST('/v1/webhooks', { body })),
    list: async () => (await unwrap(api.GET('/v1/webhooks'))).data,
    get: (id: string) => unwrap(api.GET('/v1/webhooks/{id}', byId(id))),
    update: (id: string, body: JsonBody<'updateWebhook'>) =>
      unwrap(api.PATCH('/v1/webhooks/{id}', { ...byId(id), body })),
    delete: (id: string) => unwrap(api.DELETE('/v1/webhooks/{id}', byId(id))),
    /** A new secret, answered once; the previous one keeps signing during the overlap (pass both to verifyWebhook). */
    rotateSecret: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/rotate-secret', byId(id))),
    /** Sends a `webhook.test` event to the webhook. */
    test: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/test', byId(id))),
    /** Its deliveries, page after page; `{ status: 'failed' }` is the dead-letter list. */
    deliveries: (id: string, query: ListQuery<'listWebhookDeliveries'> = {}) =>
      paginate((cursor) =>
        unwrap(
          api.GET('/v1/webhooks/{id}/deliveries', {
            params: { path: { id }, query: { ...query, ...(cursor ? { cursor } : {}) } },
          }),
        ),
      ),
    /** Sends a failed delivery again: same id, same body, new attempts. */
    redeliver: (id: string, deliveryId: string) =>
      unwrap(api.POST('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } })),
  };
}
