import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { insertRow, insertRows } from '../store/insert';
import { serialPerKey } from './queue-by-key';

export interface WindowState {
  limit: number;
  remaining: number;
  /** When the window ends (ms since epoch). */
  resetAt: number;
  exceeded: boolean;
}

/** A fixed window counting requests of one subject (a key, an account, an address). */
export interface Window {
  subject: string;
  limit: number;
  windowMs: number;
}

export interface RateLimiter {
  /**
   * Counts one request against each window, in order, stopping at the first
   * that is full (its state, `exceeded`, is the last one answered); the
   * request's slots in all of them are claimed by one write.
   */
  hit(windows: readonly Window[], options?: { now?: number }): Promise<WindowState[]>;
  /**
   * Whether `item` (e.g. a recipient) may be used by `subject` in the current
   * UTC day, counting distinct items against `perDay`: an item already used
   * today passes without counting again. A first use claims the item's own
   * slot and then one of the day's; refused, it gives the item's slot back.
   */
  admitDistinct(subject: string, item: string, perDay: number, now?: number): Promise<WindowState>;
}

const DAY_MS = 86_400_000;

interface Claim {
  subject: string;
  window: string;
  limit: number;
  resetAt: number;
  taken: number;
}

/**
 * Windows as claimed slots: the n-th request of a window inserts slot n, and
 * unique inserts are atomic on every backend, so a slot number is an exact
 * position shared by every API process. A process remembers the last slot it
 * saw in each window and claims the next one directly, the slots of all a
 * request's windows in one unordered insert; only a lost race (another
 * process took a slot) costs a count and another try of that window alone.
 * Claims of one subject run one after another within a process, so its own
 * requests never race each other. A full window answers without writing.
 */
export function rateLimiter(store: Store): RateLimiter {
  return new StoredWindows(store);
}

class StoredWindows implements RateLimiter {
  private readonly serial = serialPerKey();
  /** Per subject: the window last used and the highest slot seen taken in it. */
  private readonly lastSeen = new Map<string, { window: string; taken: number }>();

  constructor(private readonly store: Store) {}

  readonly hit: RateLimiter['hit'] = (windows, { now = Date.now() } = {}) => {
    if (this.lastSeen.size > 100_000) this.lastSeen.clear();
    const claims = windows.map(({ subject, limit, windowMs }) => {
      const start = Math.floor(now / windowMs) * windowMs;
      return { subject, window: `${subject}@${start}`, limit, resetAt: start + windowMs, taken: 0 };
    });
    return this.inTurn(
      claims.map((claim) => claim.subject),
      () => this.claimAll(claims),
    );
  };

  readonly admitDistinct: RateLimiter['admitDistinct'] = async (subject, item, perDay, now = Date.now()) => {
    const itemSubject = `${subject}:${item}`;
    const [first] = await this.hit([{ subject: itemSubject, limit: 1, windowMs: DAY_MS }], { now });
    if (first!.exceeded) return { limit: perDay, remaining: perDay, resetAt: first!.resetAt, exceeded: false };
    const [counted] = await this.hit([{ subject, limit: perDay, windowMs: DAY_MS }], { now });
    if (counted!.exceeded) {
      await this.store.rateSlots.deleteOne({ _id: `${itemSubject}@${first!.resetAt - DAY_MS}#1` });
      this.lastSeen.delete(itemSubject);
    }
    return counted!;
  };

  /** Runs `task` holding the serial turn of every subject, taken in one order. */
  private inTurn<T>(subjects: string[], task: () => Promise<T>): Promise<T> {
    return subjects.length === 0 ? task() : this.serial(subjects[0]!, () => this.inTurn(subjects.slice(1), task));
  }

  private async claimAll(claims: Claim[]): Promise<WindowState[]> {
    const open: Claim[] = [];
    let full: Claim | undefined;
    for (const claim of claims) {
      const seen = this.lastSeen.get(claim.subject);
      claim.taken = seen?.window === claim.window ? seen.taken : await this.count(claim.window);
      if (claim.taken >= claim.limit) {
        full = claim;
        break;
      }
      open.push(claim);
    }
    const lost = open.length > 0 ? await this.insertSlots(open) : new Set<Claim>();
    const states: WindowState[] = [];
    for (const claim of open) {
      const claimed = lost.has(claim) ? await this.claimAfterRace(claim) : true;
      if (claimed) claim.taken += 1;
      this.lastSeen.set(claim.subject, { window: claim.window, taken: claim.taken });
      states.push(stateOf(claim, !claimed));
      if (!claimed) return states;
    }
    if (full) {
      this.lastSeen.set(full.subject, { window: full.window, taken: full.taken });
      states.push(stateOf(full, true));
    }
    return states;
  }

  /** Slots of the windows that have room, all in one write: the claims another process beat to their slot. */
  private async insertSlots(claims: Claim[]): Promise<Set<Claim>> {
    if (claims.length === 1)
      return insertRow(this.store.rateSlots, slotOf(claims[0]!)).then(
        () => new Set(),
        (err: unknown) => {
          if (!isDuplicateKey(err)) throw err;
          return new Set(claims);
        },
      );
    try {
      await insertRows(this.store.rateSlots, claims.map(slotOf));
      return new Set();
    } catch (err) {
      const failures = (err as { writeErrors?: { index: number; code: number }[] }).writeErrors;
      if (!failures?.every((failure) => failure.code === 11000)) throw err;
      return new Set(failures.map((failure) => claims[failure.index]!));
    }
  }

  /** A window whose slot was taken by another process: recount and claim the first free one. */
  private async claimAfterRace(claim: Claim): Promise<boolean> {
    for (
      claim.taken = await this.count(claim.window);
      claim.taken < claim.limit;
      claim.taken = await this.count(claim.window)
    ) {
      const lost = await this.insertSlots([claim]);
      if (lost.size === 0) return true;
    }
    return false;
  }

  private count(window: string): Promise<number> {
    return this.store.rateSlots.countDocuments({ window });
  }
}

const slotOf = (claim: Claim) => ({
  _id: `${claim.window}#${claim.taken + 1}`,
  window: claim.window,
  expires_at: new Date(claim.resetAt),
});

const stateOf = (claim: Claim, exceeded: boolean): WindowState => ({
  limit: claim.limit,
  remaining: Math.max(0, claim.limit - claim.taken),
  resetAt: claim.resetAt,
  exceeded,
});

/** Removes slots of windows that have ended; run on a schedule because FerretDB has no TTL indexes. */
export async function deleteExpiredWindows(store: Store, now = new Date()): Promise<number> {
  const { deletedCount } = await store.rateSlots.deleteMany({ expires_at: { $lt: now } });
  return deletedCount;
}
