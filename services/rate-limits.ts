import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { insertRow } from '../store/insert';
import { serialPerKey } from './serial';

export interface WindowState {
  limit: number;
  remaining: number;
  /** When the window ends (ms since epoch). */
  resetAt: number;
  exceeded: boolean;
}

export interface RateLimiter {
  /** Counts one request against `subject`'s fixed window; none when the window is full. */
  hit(subject: string, limit: number, windowMs: number, options?: { now?: number }): Promise<WindowState>;
  /**
   * Whether `item` (e.g. a recipient) may be used by `subject` in the current
   * UTC day, counting distinct items against `perDay`: an item already used
   * today passes without counting again. A first use claims the item's own
   * slot and then one of the day's; refused, it gives the item's slot back.
   */
  admitDistinct(subject: string, item: string, perDay: number, now?: number): Promise<WindowState>;
}

const DAY_MS = 86_400_000;

/**
 * Windows as claimed slots: the n-th request of a window inserts slot n, and
 * unique inserts are atomic on every backend, so a slot number is an exact
 * position shared by every API process. A process remembers the last slot it
 * saw in each window and claims the next one directly; only a lost race
 * (another process took it) costs a count and another try. Claims of one
 * window run one after another within a process, so its own requests never
 * race each other. A full window answers without writing.
 */
export function rateLimiter(store: Store): RateLimiter {
  const serial = serialPerKey();
  /** Per subject: the window last used and the highest slot seen taken in it. */
  const lastSeen = new Map<string, { window: string; taken: number }>();
  const count = (window: string) => store.rateSlots.countDocuments({ window });

  async function claim(subject: string, window: string, limit: number, resetAt: number): Promise<WindowState> {
    const seen = lastSeen.get(subject);
    let taken = seen?.window === window ? seen.taken : await count(window);
    let claimed = false;
    while (!claimed && taken < limit) {
      try {
        await insertRow(store.rateSlots, { _id: `${window}#${taken + 1}`, window, expires_at: new Date(resetAt) });
        claimed = true;
        taken += 1;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // Another process took that slot: recount and go on from the first free one.
        taken = await count(window);
      }
    }
    lastSeen.set(subject, { window, taken });
    return { limit, remaining: Math.max(0, limit - taken), resetAt, exceeded: !claimed };
  }

  const hit: RateLimiter['hit'] = (subject, limit, windowMs, { now = Date.now() } = {}) => {
    if (lastSeen.size > 100_000) lastSeen.clear();
    const start = Math.floor(now / windowMs) * windowMs;
    const window = `${subject}@${start}`;
    return serial(subject, () => claim(subject, window, limit, start + windowMs));
  };

  return {
    hit,
    async admitDistinct(subject, item, perDay, now = Date.now()) {
      const itemSubject = `${subject}:${item}`;
      const first = await hit(itemSubject, 1, DAY_MS, { now });
      if (first.exceeded) return { limit: perDay, remaining: perDay, resetAt: first.resetAt, exceeded: false };
      const counted = await hit(subject, perDay, DAY_MS, { now });
      if (counted.exceeded) {
        await store.rateSlots.deleteOne({ _id: `${itemSubject}@${first.resetAt - DAY_MS}#1` });
        lastSeen.delete(itemSubject);
      }
      return counted;
    },
  };
}

/** Removes slots of windows that have ended; run on a schedule because FerretDB has no TTL indexes. */
export async function deleteExpiredWindows(store: Store, now = new Date()): Promise<number> {
  const { deletedCount } = await store.rateSlots.deleteMany({ expires_at: { $lt: now } });
  return deletedCount;
}

