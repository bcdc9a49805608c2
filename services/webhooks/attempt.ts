import http from 'node:http';
import https from 'node:https';

import { sortableIdTime } from '../../domain/ids';
import type { SecretBox } from '../../domain/secret-box';
import { signatureHeaders } from '../../domain/webhooks';
import { pinnedLookup } from '../../platform/checked-host';
import { webhookAttempts, webhookDeliveries, webhookLag } from '../../platform/metrics';
import type { Store } from '../../store';
import type { DeliveryRow } from '../../store/webhooks';
import { activeSecrets, findWebhook } from './registry';
import { checkTarget, type TargetPolicy } from './target';

/**
 * One delivery attempt: one POST of the delivery's exact body, signed now
 * (a fresh timestamp; the same body and delivery id every time), to the
 * addresses checked just before and connected to directly, with a 10-second
 * limit and no redirect followed. The attempt is recorded on the delivery
 * whatever its outcome.
 */

export const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4_096;

export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'failed'; error: string }
  /** Nothing to do: delivered already, or the webhook is gone. */
  | { kind: 'settled'; reason: string };

interface Answer {
  statusCode: number;
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
        // Only the status matters; a little of the answer is read so the connection can close cleanly.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on('close', () => resolve({ statusCode: response.statusCode ?? 0 }));
        response.on('error', () => resolve({ statusCode: response.statusCode ?? 0 }));
      },
    );
    request.on('error', (err) => reject(err.name === 'AbortError' || err.name === 'TimeoutError' ? new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s (timeout)`) : err));
    request.end(body);
  });
}

export async function attemptDelivery(store: Store, box: SecretBox, policy: Omit<TargetPolicy, 'environment'>, deliveryId: string, now = new Date()): Promise<AttemptOutcome> {
  const delivery = await store.deliveries.findById(deliveryId).lean();
  if (!delivery) return { kind: 'settled', reason: `delivery ${deliveryId} does not exist` };
  if (delivery.status !== 'pending') return { kind: 'settled', reason: `delivery ${deliveryId} is ${delivery.status}` };
  const webhook = await findWebhook(store, delivery.webhook_id);
  if (!webhook || !webhook.enabled) return { kind: 'settled', reason: `webhook ${delivery.webhook_id} is ${webhook ? 'disabled' : 'deleted'}` };

  const started = Date.now();
  let outcome: AttemptOutcome;
  const target = await checkTarget(webhook.url, { ...policy, environment: webhook.environment });
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
      const answer = await post(target.url, target.addresses, headers, delivery.body);
      outcome =
        answer.statusCode >= 200 && answer.statusCode < 300
          ? { kind: 'succeeded', statusCode: answer.statusCode }
          : { kind: 'failed', error: `answered ${answer.statusCode}${answer.statusCode >= 300 && answer.statusCode < 400 ? ' (a redirect; redirects are not followed)' : ''}` };
      await record(store, delivery, outcome, answer.statusCode, Date.now() - started);
      return outcome;
    } catch (err) {
      outcome = { kind: 'failed', error: (err as Error).message };
    }
  }
  await record(store, delivery, outcome, null, Date.now() - started);
  return outcome;
}

/**
 * Appends the attempt; a success also settles the delivery (only a pending one: a late attempt changes nothing),
 * and the first success counts the lag from the event, whose id tells when it happened.
 */
async function record(store: Store, delivery: DeliveryRow, outcome: AttemptOutcome, statusCode: number | null, durationMs: number): Promise<void> {
  const at = new Date();
  const attempt = { at, status_code: statusCode, error: outcome.kind === 'failed' ? outcome.error : null, duration_ms: durationMs };
  const recorded = await store.deliveries.updateOne(
    { _id: delivery._id, status: 'pending' },
    { $push: { attempts: attempt }, $set: { updated_at: at, ...(outcome.kind === 'succeeded' && { status: 'succeeded' }) } },
  );
  webhookAttempts.inc({ outcome: outcome.kind });
  if (outcome.kind !== 'succeeded' || recorded.modifiedCount === 0) return;
  webhookDeliveries.inc({ outcome: 'succeeded' });
  webhookLag.observe(Math.max(0, at.getTime() - sortableIdTime(delivery.event_id)) / 1000);
}

/** After the last attempt failed: the delivery is in the dead-letter queue, listed and redeliverable. */
export async function markDeliveryFailed(store: Store, deliveryId: string): Promise<void> {
  const failed = await store.deliveries.updateOne({ _id: deliveryId, status: 'pending' }, { $set: { status: 'failed', updated_at: new Date() } });
  if (failed.modifiedCount === 1) webhookDeliveries.inc({ outcome: 'failed' });
}
