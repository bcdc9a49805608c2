import type { Store } from '../store';

export interface WindowState {
  limit: number;
  remaining: number;
  /** When the window ends (ms since epoch). */
  resetAt: number;
  exceeded: boolean;
}

const isDuplicateKey = (err: unknown) => (err as { code?: number }).code === 11000;

/**
 * Fixed windows counted in the database, so every API process shares one
 * count. The first hit of a window creates its counter; two processes racing
 * to create it end with one insert and one increment.
 */
export async function hitWindow(store: Store, subject: string, limit: number, windowMs: number, now = Date.now()): Promise<WindowState> {
  const start = Math.floor(now / windowMs) * windowMs;
  const resetAt = start + windowMs;
  const id = `${subject}@${start}`;
  const increment = (upsert: boolean) =>
    store.rateWindows.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(resetAt) } },
      { upsert, new: true },
    );
  const counter = await increment(true).catch((err: unknown) => {
    if (isDuplicateKey(err)) return increment(false);
    throw err;
  });
  const count = counter?.count ?? 1;
  return { limit, remaining: Math.max(0, limit - count), resetAt, exceeded: count > limit };
}

/** Removes windows that have ended; run on a schedule because FerretDB has no TTL indexes. */
export async function deleteExpiredWindows(store: Store, now = new Date()): Promise<number> {
  const { deletedCount } = await store.rateWindows.deleteMany({ expires_at: { $lt: now } });
  return deletedCount;
}
