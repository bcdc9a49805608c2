/**
 * Writes that need not hold up their caller: items gather in memory for
 * `lingerMs` after the first one, and while a write is in flight, then go
 * out together in one write. Without the wait a process busy with short
 * requests still wrote nearly once per item (measured: 482 deletes for 576
 * documents), because each write finished before the next item came.
 * A failed write is reported and its items dropped: use it only where
 * something else repairs a lost write (a reconciler) or where a count may
 * fall short after a database failure (usage).
 */
export interface WriteBehind<Item> {
  add(item: Item): void;
  /** Resolves once everything added so far is written, without waiting out the linger (tests, shutdown, a read of the totals). */
  flush(): Promise<void>;
}

/**
 * The linger unless told otherwise: at 30–40 requests a second, 8–10 items a
 * write; an item waits at most this long, well inside the reconciler's grace
 * and invisible in a usage report (which flushes first).
 */
const DEFAULT_LINGER_MS = 250;

export function writeBehind<Item>(
  write: (items: Item[]) => Promise<void>,
  onFailure: (err: unknown, items: Item[]) => void,
  options: { lingerMs?: number } = {},
): WriteBehind<Item> {
  const lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
  let pending: Item[] = [];
  let writing: Promise<void> | undefined;
  let lingering: NodeJS.Timeout | undefined;

  function drain(): Promise<void> {
    clearTimeout(lingering);
    lingering = undefined;
    writing ??= (async () => {
      while (pending.length > 0) {
        const batch = pending;
        pending = [];
        await write(batch).catch((err: unknown) => onFailure(err, batch));
      }
    })().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  return {
    add(item) {
      pending.push(item);
      // A write in flight takes this item in its next round; a linger under way takes it when it ends.
      if (writing || lingering) return;
      if (lingerMs === 0) void drain();
      // Unreferenced: a process that is ending flushes what it must.
      else lingering = setTimeout(() => void drain(), lingerMs).unref();
    },
    async flush() {
      while (writing || pending.length > 0) await drain();
    },
  };
}
