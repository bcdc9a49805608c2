/**
 * A bounded cache of answers that expire, for lookups a process repeats:
 * each entry is kept until the time its loader gave (or not at all), the
 * least recently used entry makes room when the cache is full, and callers
 * asking for a key whose load is under way share that load instead of
 * starting another. A load that fails is never kept, and a key forgotten
 * while its load runs does not keep that load's answer. Time comes from the
 * clock it is given, so tests need no waiting.
 */

/** What a load found, and until when (epoch ms) it may be kept; no `keepUntil`: used once, not kept. */
export interface Loaded<V> {
  value: V;
  keepUntil?: number;
}

export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: V; keepUntil: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The kept answer for `key`, or the load's (shared with every caller asking meanwhile). */
  get(key: string, load: () => Promise<Loaded<V>>): Promise<V> {
    const kept = this.entries.get(key);
    if (kept && kept.keepUntil > this.now()) {
      // Map order is insertion order: moving a hit to the end makes the first entry the least recently used.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return Promise.resolve(kept.value);
    }
    if (kept) this.entries.delete(key);
    const running = this.loading.get(key);
    if (running) return running;

    const loaded = load().then(
      ({ value, keepUntil }) => {
        // Forgotten (or replaced) while loading: this answer may be the stale one that made a caller forget.
        if (this.loading.get(key) === loaded) {
          this.loading.delete(key);
          if (keepUntil !== undefined && keepUntil > this.now() && this.maxEntries > 0)
            this.keep(key, value, keepUntil);
        }
        return value;
      },
      (err: unknown) => {
        if (this.loading.get(key) === loaded) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, loaded);
    return loaded;
  }

  /** Whether an answer that has not expired is kept for any key `matches` accepts. */
  holds(matches: (key: string) => boolean): boolean {
    const now = this.now();
    for (const [key, { keepUntil }] of this.entries) if (keepUntil > now && matches(key)) return true;
    return false;
  }

  /** Drops the kept answers (and loads under way) of every key `matches` accepts. */
  forget(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (matches(key)) this.entries.delete(key);
    for (const key of [...this.loading.keys()]) if (matches(key)) this.loading.delete(key);
  }

  private keep(key: string, value: V, keepUntil: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, keepUntil });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
