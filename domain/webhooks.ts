import { createHmac, timingSafeEqual } from 'node:crypto';

import { randomBase62 } from './ids';

/**
 * Webhooks, the pure part: which events a webhook can subscribe to, the
 * signing secret's form and the signature headers (the addresses a webhook
 * may reach are domain/public-address.ts's).
 */

/** What a webhook subscribes to: these kinds, or `*` for all. `webhook.test` is sent only by the test endpoint. */
export const SUBSCRIBABLE_EVENTS = [
  'document.queued',
  'document.sending',
  'document.delivered',
  'document.failed',
  'document.received',
  'document.response_sent',
  'document.response_failed',
  'document.response_received',
  'document.mls_received',
  'credits.low',
  'webhook.disabled',
] as const;
export const TEST_EVENT = 'webhook.test';

/** Whether a webhook subscribed to `events` receives an event of `type` (retries are in the feed, not webhooks). */
export const subscribes = (events: readonly string[], type: string) => events.includes('*') || events.includes(type);

/** Event kinds of the log that go to webhooks (`document.retry` is in the feed only). */
export const isDeliverable = (type: string) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(type);

export const newWebhookSecret = () => `whsec_${randomBase62(40)}`;

const hmac = (secret: string, payload: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(payload, 'utf8').digest('hex');

export interface SignatureHeaders {
  'X-Peppol-Signature-V2': string;
  'X-Peppol-Signature': string;
  'X-Peppol-Timestamp': string;
}

/**
 * The spec's two signatures of `body` at `timestamp` (Unix seconds): V2 signs
 * `<timestamp>.<body>` once per active secret, newest first; the legacy one
 * signs the body alone with the newest secret.
 */
export function signatureHeaders(
  body: string,
  timestamp: number,
  secretsNewestFirst: readonly string[],
): SignatureHeaders {
  const [newest] = secretsNewestFirst;
  if (!newest) throw new Error('a webhook has at least one active secret');
  const t = String(timestamp);
  return {
    'X-Peppol-Signature-V2': [
      `t=${t}`,
      ...secretsNewestFirst.map((secret) => `v1=${hmac(secret, `${t}.${body}`)}`),
    ].join(','),
    'X-Peppol-Signature': hmac(newest, body),
    'X-Peppol-Timestamp': t,
  };
}

/**
 * What a receiver does (and the tests do): any `v1=` matches, compared in constant time, the timestamp within the tolerance.
 * @internal
 */
export function verifySignatureV2(
  header: string,
  body: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, `${t}.${body}`), 'hex');
  return parts.some(
    ([key, value]) =>
      key === 'v1' && value.length === expected.length * 2 && timingSafeEqual(Buffer.from(value, 'hex'), expected),
  );
}
