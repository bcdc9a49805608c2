import http from 'node:http';
import https from 'node:https';

import { newSortableId, sortableIdTime } from '../../domain/ids';
import { retryDelayMs } from '../../domain/webhook-breaker';
import type { SecretBox } from '../../domain/secret-box';
import { signatureHeaders } from '../../domain/webhooks';
import { pinnedLookup } from '../../platform/public-host';
import { webhookAttempts, webhookDeliveries, webhookLag } from '../../platform/metrics';
import type { Store } from '../../store';
import type { AttemptRow, DeliveryRow } from '../../store/webhooks';
import { WEBHOOK_MAX_ATTEMPTS } from '../../workflows/shared';
import { activeSecrets, findWebhook } from './registry';
import { checkTarget, type TargetPolicy } from './target';

/**
 * One delivery attempt: one POST of the delivery's exact body, signed now
 * (a fresh timestamp; the same body and delivery id every time), to the
 * addresses checked just before and connected to directly, with a 10-second
 * limit and no redirect followed. The attempt is recorded as a row of its
 * own whatever its outcome, and the delivery moves on: succeeded, due again
 * after the backoff, or (its fifth failed attempt) failed, in the dead-letter
 * queue. Its endpoint's workflow is the one caller (workflows/webhook-endpoint.ts).
 */

const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_096;
/** Of the answer, this much is kept with the attempt: enough to read an error page's first line. */
const EXCERPT_CHARACTERS = 256;

export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'failed'; error: string }
  /** Nothing to do now: delivered or failed already, not due yet, or the webhook disabled or gone. */
  | { kind: 'settled'; reason: string };

interface Answer {
  statusCode: number;
  excerpt: string;
}

/** POSTs to `url`, connecting to the checked `addresses` only, with the URL's host for TLS and the Host header. */
function post(url: URL, addresses: string[], headers: Record<string, string>, body: string): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      },
      (response) => {
        // The status decides; a little of the answer is read, to keep its start and so the connection can close cleanly.
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          if (read < MAX_ANSWER_BYTES) chunks.push(chunk);
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const answered = () =>
          resolve({
            statusCode: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARACTERS),
          });
        response.on('end', answered);
        response.on('close', answered);
        response.on('error', answered);
      },
    );
    request.on('error', (err) =>
      reject(
        err.name === 'AbortError' || err.name === 'TimeoutError'
          ? new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s (timeout)`)
          : err,
      ),
    );
    request.end(body);
  });
}

/** What an attempt came to; `settled`: nothing to do (delivered already, failed, or its webhook disabled or gone). */
export async function attemptDelivery(
  store: Store,
  box: SecretBox,
  policy: Omit<TargetPolicy, 'environment'>,
  retryInitialMs: number,
  deliveryId: string,
  now = new Date(),
): Promise<AttemptOutcome> {
  const delivery = await store.deliveries.findById(deliveryId).lean();
  if (!delivery) return { kind: 'settled', reason: `delivery ${deliveryId} does not exist` };
  if (delivery.status !== 'pending') return { kind: 'settled', reason: `delivery ${deliveryId} is ${delivery.status}` };
  // Its workflow takes only due deliveries; an attempt run again (its workflow task redone) after it failed is not due.
  if (delivery.next_attempt_at && delivery.next_attempt_at > now)
    return {
      kind: 'settled',
      reason: `delivery ${deliveryId} is not due until ${delivery.next_attempt_at.toISOString()}`,
    };
  const webhook = await findWebhook(store, delivery.webhook_id);
  if (!webhook || !webhook.enabled)
    return { kind: 'settled', reason: `webhook ${delivery.webhook_id} is ${webhook ? 'disabled' : 'deleted'}` };

  const started = Date.now();
  const target = await checkTarget(webhook.url, { ...policy, environment: webhook.environment });
  let outcome: AttemptOutcome;
  let answer: Answer | null = null;
  if (!target.ok) {
    outcome = { kind: 'failed', error: `target not allowed: ${target.reason}` };
  } else {
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'einvoice-webhooks/1',
      'X-Peppol-Event': delivery.event_type,
      'X-Peppol-Delivery-Id': delivery._id,
      ...signatureHeaders(delivery.body, Math.floor(now.getTime() / 1000), activeSecrets(box, webhook, now)),
    };
    try {
      answer = await post(target.url, target.addresses, headers, delivery.body);
      outcome =
        answer.statusCode >= 200 && answer.statusCode < 300
          ? { kind: 'succeeded', statusCode: answer.statusCode }
          : {
              kind: 'failed',
              error: `answered ${answer.statusCode}${answer.statusCode >= 300 && answer.statusCode < 400 ? ' (a redirect; redirects are not followed)' : ''}`,
            };
    } catch (err) {
      outcome = { kind: 'failed', error: (err as Error).message };
    }
  }
  await record(store, delivery, outcome, answer, Date.now() - started, retryInitialMs);
  return outcome;
}

/**
 * The attempt's row, then the delivery's move, conditional on the round's count it was read with (its endpoint's
 * workflow attempts it once at a time, so nothing else moves it meanwhile; a redelivery starts a new round):
 * a success settles it and counts the lag from the event, whose id tells when it happened; a failure makes it due
 * again after the backoff, or puts it in the dead-letter queue after the fifth.
 */
async function record(
  store: Store,
  delivery: DeliveryRow,
  outcome: Exclude<AttemptOutcome, { kind: 'settled' }>,
  answer: Answer | null,
  durationMs: number,
  retryInitialMs: number,
): Promise<void> {
  const at = new Date();
  const roundAttempts = delivery.round_attempts + 1;
  const last = outcome.kind === 'failed' && roundAttempts >= WEBHOOK_MAX_ATTEMPTS;
  const nextAttemptAt =
    outcome.kind === 'failed' && !last ? new Date(at.getTime() + retryDelayMs(retryInitialMs, roundAttempts)) : null;
  const attempt: AttemptRow = {
    _id: newSortableId('webhookAttempt', at.getTime()),
    delivery_id: delivery._id,
    webhook_id: delivery.webhook_id,
    number: delivery.attempt_count + 1,
    at,
    outcome: outcome.kind,
    status_code: answer?.statusCode ?? null,
    response_excerpt: answer?.excerpt || null,
    error: outcome.kind === 'failed' ? outcome.error : null,
    duration_ms: durationMs,
    next_attempt_at: nextAttemptAt,
  };
  await store.deliveryAttempts.create(attempt);
  const status = outcome.kind === 'succeeded' ? 'succeeded' : last ? 'failed' : 'pending';
  const moved = await store.deliveries.updateOne(
    { _id: delivery._id, status: 'pending', round_attempts: delivery.round_attempts },
    {
      $set: {
        status,
        next_attempt_at: nextAttemptAt,
        round_attempts: roundAttempts,
        attempt_count: attempt.number,
        updated_at: at,
      },
    },
  );
  webhookAttempts.inc({ outcome: outcome.kind });
  if (moved.modifiedCount === 0 || status === 'pending') return;
  webhookDeliveries.inc({ outcome: status });
  if (status === 'succeeded') webhookLag.observe(Math.max(0, at.getTime() - sortableIdTime(delivery.event_id)) / 1000);
}
