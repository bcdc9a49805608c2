import type { Client } from '@temporalio/client';

import { newSortableId, sortableIdBound } from '../../domain/ids';
import { isDeliverable, subscribes, TEST_EVENT } from '../../domain/webhooks';
import type { Logger } from '../../platform/logger';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import type { EventRow } from '../../store/events';
import { insertRow } from '../../store/insert';
import type { AttemptRow, DeliveryRow, WebhookRow } from '../../store/webhooks';
import { pageOf, type Page } from '../paging';
import { RuleError } from '../errors';
import { wakeEndpoint } from './endpoint';
import { listWebhooks } from './registry';

/**
 * Deliveries: one row per event and subscribed webhook, sent by the webhook's
 * endpoint workflow (`webhook-endpoint-<webhook id>`), which is woken when a
 * delivery is made. An event is recorded first and fanned out right after;
 * what a crash or an outage leaves undone (an event not yet fanned out, a
 * wake that did not arrive) the fan-out reconciler finishes, so no event is
 * lost between its write and its deliveries.
 */

export interface FanOutDependencies {
  store: Store;
  temporal: Client;
  /** Wait before the second attempt (WEBHOOK_RETRY_INITIAL_INTERVAL, ms); it doubles for each next one. */
  retryInitialMs: number;
  /** An endpoint failing this long without one success is disabled (WEBHOOK_DISABLE_AFTER, ms). */
  disableAfterMs: number;
  logger: Logger;
}

/** The exact body of a delivery: the event as the feed shows it. */
const eventBody = (event: Pick<EventRow, 'type' | 'created_at' | 'data'> & { _id: string }) =>
  JSON.stringify({
    id: event._id,
    type: event.type,
    created_at: event.created_at.toISOString(),
    data: event.data as Record<string, unknown>,
  });

/** Wakes a webhook's endpoint workflow, logging instead of failing: the reconciler wakes it when this could not. */
export async function wakeSoon(deps: FanOutDependencies, webhookId: string, probe = false): Promise<void> {
  await wakeEndpoint(deps, webhookId, { probe }).catch((err: unknown) =>
    deps.logger.warn({ err, webhookId }, 'webhook endpoint not woken; the reconciler will wake it'),
  );
}

/** Stores a delivery (once per dedupe key), due now, and wakes its endpoint; the existing one when it was made before. */
async function deliver(
  deps: FanOutDependencies,
  webhook: Pick<WebhookRow, '_id' | 'workspace_id'>,
  event: { id: string; type: string; body: string },
  dedupeKey: string,
) {
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
    next_attempt_at: now,
    round_attempts: 0,
    attempt_count: 0,
    created_at: now,
    updated_at: now,
  };
  try {
    await insertRow(deps.store.deliveries, delivery);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // Made before (a repeated fan-out): its endpoint is woken again, in case the first wake was lost.
    const existing = (await deps.store.deliveries.findOne({ dedupe_key: dedupeKey }).lean())!;
    if (existing.status === 'pending') await wakeSoon(deps, existing.webhook_id);
    return existing;
  }
  await wakeSoon(deps, webhook._id);
  return delivery;
}

/** One delivery per enabled webhook of the event's workspace and environment that subscribes to its kind. */
async function fanOut(deps: FanOutDependencies, event: EventRow & { _id: string }): Promise<number> {
  if (!isDeliverable(event.type)) return 0;
  const webhooks = (await listWebhooks(deps.store, event.workspace_id, event.environment)).filter(
    (webhook) => webhook.enabled && subscribes(webhook.events, event.type),
  );
  const body = eventBody(event);
  for (const webhook of webhooks)
    await deliver(deps, webhook, { id: event._id, type: event.type, body }, `${event._id}:${webhook._id}`);
  return webhooks.length;
}

/** Fans out, logging instead of failing: whatever this leaves undone, the reconciler does. */
export async function fanOutSoon(deps: FanOutDependencies, event: (EventRow & { _id: string }) | null): Promise<void> {
  if (!event) return;
  await fanOut(deps, event).catch((err: unknown) =>
    deps.logger.error({ err, eventId: event._id }, 'fan-out failed; the reconciler will finish it'),
  );
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
const FANOUT_GRACE_MS = 30_000;
const MARK_ID = 'events';

/**
 * The reconciler's pass: every event since the last pass (up to the grace
 * period) is fanned out again (deliveries are made once per dedupe key), then
 * every endpoint with a delivery overdue by the grace period is woken: its
 * wake was lost, or its workflow stopped. An endpoint whose breaker pauses it
 * is woken too, which changes nothing (a wake ends no pause).
 */
export async function reconcileFanOut(
  deps: FanOutDependencies,
  now = Date.now(),
): Promise<{ events: number; woken: number }> {
  const { store } = deps;
  const upper = sortableIdBound('event', now - FANOUT_GRACE_MS);
  const mark = await store.fanoutMarks.findById(MARK_ID).lean();
  // The first pass ever starts an hour back: older events were fanned out when they were recorded, or not at all.
  let after = mark?.event_id ?? sortableIdBound('event', now - 60 * 60_000);
  let events = 0;
  for (;;) {
    const batch = await store.events
      .find({ _id: { $gt: after, $lt: upper } })
      .sort({ _id: 1 })
      .limit(500)
      .lean();
    for (const event of batch) await fanOut(deps, event);
    events += batch.length;
    if (batch.length === 0) break;
    after = batch.at(-1)!._id;
    await store.fanoutMarks.updateOne(
      { _id: MARK_ID },
      { $set: { event_id: after, updated_at: new Date() } },
      { upsert: true },
    );
  }
  const overdue = await store.deliveries
    .find({ status: 'pending', next_attempt_at: { $lt: new Date(now - FANOUT_GRACE_MS) } }, { webhook_id: 1 })
    .sort({ next_attempt_at: 1 })
    .limit(1_000)
    .lean();
  const endpoints = [...new Set(overdue.map((delivery) => delivery.webhook_id))];
  for (const webhookId of endpoints) await wakeEndpoint(deps, webhookId);
  return { events, woken: endpoints.length };
}

export async function findDelivery(store: Store, webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
  return store.deliveries.findOne({ _id: deliveryId, webhook_id: webhookId }).lean();
}

/** A delivery with its attempts, oldest first. */
export type DeliveryWithAttempts = DeliveryRow & { attempts: AttemptRow[] };

/** The deliveries' attempts, read in one query. */
export async function withAttempts(store: Store, deliveries: DeliveryRow[]): Promise<DeliveryWithAttempts[]> {
  const attempts =
    deliveries.length === 0
      ? []
      : await store.deliveryAttempts
          .find({ delivery_id: { $in: deliveries.map((delivery) => delivery._id) } })
          .sort({ _id: 1 })
          .lean();
  return deliveries.map((delivery) => ({
    ...delivery,
    attempts: attempts.filter((attempt) => attempt.delivery_id === delivery._id),
  }));
}

export async function listDeliveries(
  store: Store,
  webhookId: string,
  query: { status?: DeliveryRow['status'] | undefined; limit: number; before?: string | undefined },
): Promise<Page<DeliveryWithAttempts>> {
  const rows = await store.deliveries
    .find({
      webhook_id: webhookId,
      ...(query.status && { status: query.status }),
      ...(query.before && { _id: { $lt: query.before } }),
    })
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .lean();
  const page = pageOf(rows, query.limit);
  return { ...page, items: await withAttempts(store, page.items) };
}

/**
 * A settled delivery goes again (same id, same body), with five new attempts, once: a failed one out of the
 * dead-letter queue, or a succeeded one its receiver lost and wants again (a pending one is underway already); of concurrent redeliveries
 * one wins. Its endpoint is woken to probe at once: whoever redelivers says the endpoint is mended, so a pause
 * of its breaker ends.
 */
export async function redeliver(deps: FanOutDependencies, delivery: DeliveryRow): Promise<DeliveryRow> {
  const now = new Date();
  const reopened = await deps.store.deliveries
    .findOneAndUpdate(
      { _id: delivery._id, status: { $in: ['failed', 'succeeded'] } },
      { $set: { status: 'pending', next_attempt_at: now, round_attempts: 0, updated_at: now } },
      { returnDocument: 'after' },
    )
    .lean();
  if (!reopened)
    throw new RuleError(
      'delivery_not_redeliverable',
      `Delivery ${delivery._id} is ${delivery.status}; only a settled one (failed, or succeeded and wanted again) can be sent again.`,
    );
  await wakeSoon(deps, reopened.webhook_id, true);
  return reopened;
}
