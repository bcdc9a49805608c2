import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { serialPerKey } from './serial';

export interface WindowState {
  limit: number;
  remaining: number;
  /** When the window ends (ms since epoch). */
  resetAt: number;
  exceeded: boolean;
}

/**
 * Counts one request in the fixed window of `subject`: claims the next free
 * slot (count, then insert; a lost race re-counts and tries the next). The
 * claimed slot is the request's exact position across all API processes; a
 * full window answers without writing.
 */
async function claimSlot(store: Store, subject: string, limit: number, windowMs: number, now: number): Promise<WindowState> {
  const start = Math.floor(now / windowMs) * windowMs;
  const resetAt = start + windowMs;
  const window = `${subject}@${start}`;
  for (;;) {
    const taken = await store.rateSlots.countDocuments({ window });
    if (taken >= limit) return { limit, remaining: 0, resetAt, exceeded: true };
    try {
      await store.rateSlots.create({ _id: `${window}#${taken + 1}`, window, expires_at: new Date(resetAt) });
      return { limit, remaining: limit - (taken + 1), resetAt, exceeded: false };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
}

export interface RateLimiter {
  hit(subject: string, limit: number, windowMs: number, now?: number): Promise<WindowState>;
}

/**
 * A process's limiter: claims for one window run one after another, so the
 * requests of one process never race each other for a slot (each lost race
 * costs a write on the database); only claims from other processes can.
 */
export function rateLimiter(store: Store): RateLimiter {
  const serial = serialPerKey();
  return {
    hit(subject, limit, windowMs, now = Date.now()) {
      const window = `${subject}@${Math.floor(now / windowMs) * windowMs}`;
      return serial(window, () => claimSlot(store, subject, limit, windowMs, now));
    },
  };
}

/** Removes slots of windows that have ended; run on a schedule because FerretDB has no TTL indexes. */
export async function deleteExpiredWindows(store: Store, now = new Date()): Promise<number> {
  const { deletedCount } = await store.rateSlots.deleteMany({ expires_at: { $lt: now } });
  return deletedCount;
}
