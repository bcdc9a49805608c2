import { createHmac, timingSafeEqual } from 'node:crypto';

import type { webhooks } from './schema';

/**
 * Checks a webhook delivery the way the service signs it, on the raw body
 * (before any JSON parsing: a re-serialised body is other bytes):
 *
 * - `X-Peppol-Signature-V2: t=<unix seconds>,v1=<hex>[,v1=<hex>]`, one `v1=`
 *   per secret active at the service (newest first; two during the 24 hours
 *   after a rotation), each `hex(HMAC-SHA256(secret, "<t>.<raw body>"))`.
 *   Accepted when any `v1=` matches any of the caller's secrets and `t` is
 *   within the tolerance (replays of an old delivery are refused).
 * - `X-Peppol-Signature` (legacy): `hex(HMAC-SHA256(newest secret, raw body))`,
 *   no timestamp, so a recorded delivery can be replayed; read only when the
 *   caller opts in with `legacy: true` and no V2 header came.
 *
 * Every comparison is constant-time.
 */

/** Any event the service delivers to a webhook, as its description types it. */
export type WebhookEvent = NonNullable<webhooks[keyof webhooks]['post']['requestBody']>['content']['application/json'];

export type WebhookVerificationFailure =
  | 'no_secrets'
  | 'missing_signature'
  | 'malformed_signature'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch'
  | 'invalid_json';

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

const SIGNATURE_V2_HEADER = 'x-peppol-signature-v2';
const LEGACY_SIGNATURE_HEADER = 'x-peppol-signature';
/** The service's own advice: five minutes. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookInput {
  /** The body exactly as it arrived. */
  rawBody: string | Uint8Array;
  /** The request's headers (Node's `req.headers`, a fetch `Headers`, or a plain object; names in any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The webhook's secret, or during a rotation's overlap the new and the previous one. */
  secrets: string | readonly string[];
  toleranceSeconds?: number;
  /** Also accept the legacy signature when no V2 signature came (no replay protection). */
  legacy?: boolean;
  /** The time to judge the timestamp by (tests). */
  now?: Date;
}

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(',') : value;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

const hmac = (secret: string, ...parts: Uint8Array[]) => {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/** Whether `candidates` (hex) holds a MAC equal to one of `expected`, each compared in constant time. */
function anyMatches(candidates: string[], expected: Buffer[]): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (!HEX_SHA256.test(candidate)) continue;
    const given = Buffer.from(candidate, 'hex');
    // No early exit: every pair is compared, so the time says nothing about which matched.
    for (const mac of expected) matched = timingSafeEqual(given, mac) || matched;
  }
  return matched;
}

function checkV2(value: string, body: Buffer, secrets: readonly string[], toleranceSeconds: number, now: Date): void {
  const pairs = value.split(',').map((part) => {
    const at = part.indexOf('=');
    return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
  });
  const timestamp = pairs.find(([key]) => key === 't')?.[1] ?? '';
  const signatures = pairs.filter(([key]) => key === 'v1').map(([, signature]) => signature);
  if (!/^\d+$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'X-Peppol-Signature-V2 must read t=<unix seconds>,v1=<hex>[,v1=<hex>].',
    );
  }
  const age = Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp));
  if (age > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `The signature's timestamp is ${age} s away from now; at most ${toleranceSeconds} s is accepted.`,
    );
  }
  const signed = [Buffer.from(`${timestamp}.`, 'utf8'), body];
  if (
    !anyMatches(
      signatures,
      secrets.map((secret) => hmac(secret, ...signed)),
    )
  ) {
    throw new WebhookVerificationError('signature_mismatch', 'No v1 signature matches any of the given secrets.');
  }
}

/** The delivered event, once its signature is good; a WebhookVerificationError saying why not otherwise. */
export function verifyWebhook(input: VerifyWebhookInput): WebhookEvent {
  const secrets = typeof input.secrets === 'string' ? [input.secrets] : [...input.secrets];
  if (secrets.length === 0 || secrets.some((secret) => secret === ''))
    throw new WebhookVerificationError('no_secrets', 'Pass the webhook secret (during a rotation, both).');
  const body = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : Buffer.from(input.rawBody);

  const v2 = header(input.headers, SIGNATURE_V2_HEADER);
  const legacy = header(input.headers, LEGACY_SIGNATURE_HEADER);
  if (v2 !== undefined) {
    checkV2(v2, body, secrets, input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, input.now ?? new Date());
  } else if (input.legacy && legacy !== undefined) {
    if (
      !anyMatches(
        [legacy.trim()],
        secrets.map((secret) => hmac(secret, body)),
      )
    ) {
      throw new WebhookVerificationError('signature_mismatch', 'X-Peppol-Signature matches none of the given secrets.');
    }
  } else {
    throw new WebhookVerificationError(
      'missing_signature',
      `No X-Peppol-Signature-V2 header${input.legacy ? ' and no X-Peppol-Signature header' : ''}.`,
    );
  }

  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The signature is good but the body is not JSON.');
  }
}
