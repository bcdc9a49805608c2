import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { newSortableId, sortableIdBound } from '../../domain/ids';
import { isDeliverable, subscribes, TEST_EVENT } from '../../domain/webhooks';
import type { Environment } from '../../domain/environment';
import type { Logger } from '../../platform/logger';
import { startWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import type { EventRow } from '../../store/events';
import { insertRow } from '../../store/insert';
import type { DeliveryRow, WebhookRow } from '../../store/webhooks';
import { webhookWorkflowId } from '../../workflows/shared';
import { pageOf, type Page } from '../paging';
import { RuleError } from '../errors';
import { listWebhooks } from './registry';

/**
 * Deliveries: one per event and subscribed webhook, each sent by its own
 * workflow (`webhook-<delivery id>`). An event is recorded first and fanned
 * out right after; what a crash or an outage leaves undone (an event not yet
 * fanned out, a delivery whose workflow did not start) the fan-out
 * reconciler finishes, so no event is lost between its write and its
 * deliveries.
 */

export interface FanOutDependencies {
  store: Store;
  temporal: Client;
  /** Wait before the second attempt (WEBHOOK_RETRY_INITIAL_INTERVAL, ms). */
  retryInitialMs: number;
  logger: Logger;
  /** Where a workspace's webhooks are read: the store each time, unless a request that raises many events passes webhooksReadOnce. */
  webhooksOf?: WebhookLister;
}

export type WebhookLister = (workspaceId: string, environment: Environment) => Promise<WebhookRow[]>;

/**
 * Reads each workspace's webhooks once, for the events one request raises (a batch's documents): a webhook
 * added meanwhile misses none of them, since the reconciler fans every recent event out again.
 */
export function webhooksReadOnce(store: Store): WebhookLister {
  const read = new Map<string, Promise<WebhookRow[]>>();
  return (workspaceId, environment) => {
    const key = `${workspaceId}:${environment}`;
    const known = read.get(key);
    if (known) return known;
    const reading = listWebhooks(store, workspaceId, environment);
    read.set(key, reading);
    reading.catch(() => read.delete(key));
    return reading;
  };
}

/** The exact body of a delivery: the event as the feed shows it. */
export const eventBody = (event: Pick<EventRow, 'type' | 'created_at' | 'data'> & { _id: string }) =>
  JSON.stringify({ id: event._id, type: event.type, created_at: event.created_at.toISOString(), data: event.data as Record<string, unknown> });

async function startDelivery(deps: FanOutDependencies, delivery: DeliveryRow): Promise<void> {
  await startWorkflow(deps.temporal, 'deliverWebhookWorkflow', {
    workflowId: webhookWorkflowId(delivery._id),
    // A redelivery runs the same id again; the delivery's own status decides whether anything is sent.
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    input: { deliveryId: delivery._id, retryInitialMs: deps.retryInitialMs },
    staticSummary: `${delivery.event_type} ${delivery.event_id} to webhook ${delivery.webhook_id}`,
  });
  await deps.store.deliveries.updateOne({ _id: delivery._id, dispatched: false }, { $set: { dispatched: true } });
}

/** Stores a delivery (once per dedupe key) and starts its workflow; the existing one when it was made before. */
async function deliver(deps: FanOutDependencies, webhook: Pick<WebhookRow, '_id' | 'workspace_id'>, event: { id: string; type: string; body: string }, dedupeKey: string) {
  const now = new Date();
  const delivery: DeliveryRow = {
    _id: newSortableId('webhookDelivery', now.getTime()),
    dedupe_key: dedupeKey,
    webhook_id: webhook._id,
    workspace_id: webhook.workspace_id,
    event_id: event.id,
    event_type: event.type,
    body: event.body,
    status: 'pending',
    dispatched: false,
    attempts: [],
    created_at: now,
    updated_at: now,
  };
  try {
    await insertRow(deps.store.deliveries, delivery);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Made before (a repeated fan-out): start it if its workflow was never known to start.
    const existing = (await deps.store.deliveries.findOne({ dedupe_key: dedupeKey }).lean())!;
    if (!existing.dispatched) await startDelivery(deps, existing);
    return existing;
  }
  await startDelivery(deps, delivery);
  return delivery;
}

/** One delivery per enabled webhook of the event's workspace and environment that subscribes to its kind. */
export async function fanOut(deps: FanOutDependencies, event: EventRow & { _id: string }): Promise<number> {
  if (!isDeliverable(event.type)) return 0;
  const webhooksOf: WebhookLister = deps.webhooksOf ?? ((workspaceId, environment) => listWebhooks(deps.store, workspaceId, environment));
  const webhooks = (await webhooksOf(event.workspace_id, event.environment)).filter((webhook) => webhook.enabled && subscribes(webhook.events, event.type));
  const body = eventBody(event);
  for (const webhook of webhooks) await deliver(deps, webhook, { id: event._id, type: event.type, body }, `${event._id}:${webhook._id}`);
  return webhooks.length;
}

/** Fans out, logging instead of failing: whatever this leaves undone, the reconciler does. */
export async function fanOutSoon(deps: FanOutDependencies, event: (EventRow & { _id: string }) | null): Promise<void> {
  if (!event) return;
  await fanOut(deps, event).catch((err: unknown) => deps.logger.error({ err, eventId: event._id }, 'fan-out failed; the reconciler will finish it'));
}

/** A synthetic `webhook.test` event, delivered like any other. */
export async function sendTestEvent(deps: FanOutDependencies, webhook: WebhookRow): Promise<DeliveryRow> {
  const now = new Date();
  const id = newSortableId('event', now.getTime());
  const body = JSON.stringify({
    id,
    type: TEST_EVENT,
    created_at: now.toISOString(),
    data: { webhook_id: webhook._id, message: 'A test event: this webhook receives and verifies deliveries.' },
  });
  return deliver(deps, webhook, { id, type: TEST_EVENT, body }, `test:${id}:${webhook._id}`);
}

/** An event younger than this may still be fanned out by the process that recorded it. */
export const FANOUT_GRACE_MS = 30_000;
const MARK_ID = 'events';

/**
 * The reconciler's pass: every event since the last pass (up to the grace
 * period) is fanned out again (deliveries are made once per dedupe key), then
 * every delivery whose workflow was never known to start is started.
 */
export async function reconcileFanOut(deps: FanOutDependencies, now = Date.now()): Promise<{ events: number; started: number }> {
  const { store } = deps;
  const upper = sortableIdBound('event', now - FANOUT_GRACE_MS);
  const mark = await store.fanoutMarks.findById(MARK_ID).lean();
  // The first pass ever starts an hour back: older events were fanned out when they were recorded, or not at all.
  let after = mark?.event_id ?? sortableIdBound('event', now - 60 * 60_000);
  let events = 0;
  for (;;) {
    const batch = await store.events.find({ _id: { $gt: after, $lt: upper } }).sort({ _id: 1 }).limit(500).lean();
    for (const event of batch) await fanOut(deps, event);
    events += batch.length;
    if (batch.length === 0) break;
    after = batch.at(-1)!._id;
    await store.fanoutMarks.updateOne({ _id: MARK_ID }, { $set: { event_id: after, updated_at: new Date() } }, { upsert: true });
  }
  const stranded = await store.deliveries
    .find({ dispatched: false, _id: { $lt: sortableIdBound('webhookDelivery', now - FANOUT_GRACE_MS) } })
    .sort({ _id: 1 })
    .limit(500)
    .lean();
  for (const delivery of stranded) await startDelivery(deps, delivery);
  return { events, started: stranded.length };
}

export async function findDelivery(store: Store, webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
  return store.deliveries.findOne({ _id: deliveryId, webhook_id: webhookId }).lean();
}

export async function listDeliveries(
  store: Store,
  webhookId: string,
  query: { status?: DeliveryRow['status'] | undefined; limit: number; before?: string | undefined },
): Promise<Page<DeliveryRow>> {
  const rows = await store.deliveries
    .find({ webhook_id: webhookId, ...(query.status && { status: query.status }), ...(query.before && { _id: { $lt: query.before } }) })
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .lean();
  return pageOf(rows, query.limit);
}

/** A failed delivery goes again (same id, same body), once: of concurrent redeliveries one wins. */
export async function redeliver(deps: FanOutDependencies, delivery: DeliveryRow): Promise<DeliveryRow> {
  const reopened = await deps.store.deliveries
    .findOneAndUpdate({ _id: delivery._id, status: 'failed' }, { $set: { status: 'pending', dispatched: false, updated_at: new Date() } }, { returnDocument: 'after' })
    .lean();
  if (!reopened) throw new RuleError('delivery_not_redeliverable', `Delivery ${delivery._id} is ${delivery.status}; only a failed delivery can be sent again.`);
  await startDelivery(deps, reopened);
  return reopened;
}
