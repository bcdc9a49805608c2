/**
 * Runs tasks of the same key one after another and tasks of different keys
 * side by side: a process never has two writes to one record in flight
 * (FerretDB v1 loses one of two concurrent updates to a document).
 */
export function serialPerKey() {
  const pending = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const run = (pending.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    pending.set(key, run);
    // The caller handles a failure; this bookkeeping branch must not become an unhandled rejection.
    void run
      .finally(() => {
        if (pending.get(key) === run) pending.delete(key);
      })
      .catch(() => undefined);
    return run;
  };
}
