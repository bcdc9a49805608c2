import { randomInt } from 'node:crypto';

/**
 * Resource ids: a type prefix and 24 base62 characters (~143 bits), e.g.
 * `com_7fQ2…`. Audit ids start with a time component so they sort by creation.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(62)];
  return out;
}

export const ID_PREFIXES = {
  account: 'acc',
  workspace: 'wsp',
  company: 'com',
  auditEvent: 'aud',
  document: 'doc',
  attachment: 'att',
  kycDocument: 'kyd',
  event: 'evt',
  webhook: 'whk',
  webhookDelivery: 'whd',
  webhookAttempt: 'wha',
  invoiceResponse: 'rsp',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}

export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9A-Za-z]{24}$`);
}

/**
 * Sortable id: 10 base36 digits of milliseconds, then randomness, so ids in
 * one millisecond never tie and lexical order is creation order.
 */
export function newSortableId(kind: IdKind, now = Date.now()): string {
  return `${sortableIdBound(kind, now)}${randomBase62(14)}`;
}

/** When a sortable id was made (ms since the epoch), read back from its time part. */
export function sortableIdTime(id: string): number {
  const start = id.indexOf('_') + 1;
  return parseInt(id.slice(start, start + 10), 36);
}

/** Sorts before every sortable id made at `ms` or later, and after every one made earlier. */
export function sortableIdBound(kind: IdKind, ms: number): string {
  return `${ID_PREFIXES[kind]}_${Math.max(0, Math.floor(ms)).toString(36).padStart(10, '0')}`;
}
