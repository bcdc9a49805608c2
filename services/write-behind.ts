/**
 * Writes that need not hold up their caller: items gather in memory while a
 * write is in flight and go out together in the next one, so a busy process
 * makes one write for many items and a quiet one writes each item at once.
 * A failed write is reported and its items dropped: use it only where
 * something else repairs a lost write (a reconciler) or where a count may
 * fall short after a database failure (usage).
 */
export interface WriteBehind<Item> {
  add(item: Item): void;
  /** Resolves once everything added so far is written (tests, shutdown). */
  flush(): Promise<void>;
}

export function writeBehind<Item>(write: (items: Item[]) => Promise<void>, onFailure: (err: unknown, items: Item[]) => void): WriteBehind<Item> {
  let pending: Item[] = [];
  let writing: Promise<void> | undefined;

  function drain(): Promise<void> {
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
      void drain();
    },
    async flush() {
      while (writing || pending.length > 0) await drain();
    },
  };
}
