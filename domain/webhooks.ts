import { createHmac, timingSafeEqual } from 'node:crypto';
import net from 'node:net';

import { randomBase62 } from './ids';

/**
 * Webhooks, the pure part: which events a webhook can subscribe to, the
 * signing secret's form, the signature headers, and which addresses a
 * webhook may never reach.
 */

/** What a webhook subscribes to: these kinds, or `*` for all. `webhook.test` is sent only by the test endpoint. */
export const SUBSCRIBABLE_EVENTS = ['document.queued', 'document.sending', 'document.delivered', 'document.failed', 'credits.low'] as const;
export type SubscribableEvent = (typeof SUBSCRIBABLE_EVENTS)[number];
export const TEST_EVENT = 'webhook.test';

/** Whether a webhook subscribed to `events` receives an event of `type` (retries are in the feed, not webhooks). */
export const subscribes = (events: readonly string[], type: string) => events.includes('*') || events.includes(type);

/** Event kinds of the log that go to webhooks (`document.retry` is in the feed only). */
export const isDeliverable = (type: string) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(type);

export const newWebhookSecret = () => `whsec_${randomBase62(40)}`;
export const WEBHOOK_SECRET_PATTERN = /^whsec_[0-9A-Za-z]{40}$/;

const hmac = (secret: string, payload: string) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(payload, 'utf8').digest('hex');

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
export function signatureHeaders(body: string, timestamp: number, secretsNewestFirst: readonly string[]): SignatureHeaders {
  const [newest] = secretsNewestFirst;
  if (!newest) throw new Error('a webhook has at least one active secret');
  const t = String(timestamp);
  return {
    'X-Peppol-Signature-V2': [`t=${t}`, ...secretsNewestFirst.map((secret) => `v1=${hmac(secret, `${t}.${body}`)}`)].join(','),
    'X-Peppol-Signature': hmac(newest, body),
    'X-Peppol-Timestamp': t,
  };
}

/** What a receiver does (and the tests do): any `v1=` matches, compared in constant time, the timestamp within the tolerance. */
export function verifySignatureV2(header: string, body: string, secret: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, `${t}.${body}`), 'hex');
  return parts.some(([key, value]) => key === 'v1' && value.length === expected.length * 2 && timingSafeEqual(Buffer.from(value, 'hex'), expected));
}

/**
 * Addresses a webhook may never reach: this host, private and shared
 * networks (carrier-grade NAT), link-local (cloud metadata services live at
 * 169.254.169.254 and fd00:ec2::254), and what is not unicast.
 */
const FORBIDDEN_TARGETS = (() => {
  const list = new net.BlockList();
  for (const [network, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv4');
  }
  for (const [network, prefix] of [
    ['::', 127],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['2001:db8::', 32],
  ] as const) {
    list.addSubnet(network, prefix, 'ipv6');
  }
  return list;
})();

/** The IPv4 address an IPv6 address carries (mapped, or NAT64), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a webhook may connect to this IP address. */
export function isForbiddenTarget(address: string): boolean {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
  if (!family) return true;
  const inner = family === 'ipv6' ? embeddedIpv4(address) : undefined;
  if (inner) return FORBIDDEN_TARGETS.check(inner, 'ipv4');
  return FORBIDDEN_TARGETS.check(address, family);
}
