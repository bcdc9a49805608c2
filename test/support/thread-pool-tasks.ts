/** Tasks for the thread pool's own test (test/unit/thread-pool.test.ts). */

export function add({ a, b }: { a: number; b: number }): number {
  return a + b;
}

/** Holds its thread for `ms`. */
export function busy({ ms }: { ms: number }): number {
  const until = Date.now() + ms;
  while (Date.now() < until);
  return ms;
}

export function fail({ why }: { why: string }): never {
  throw new Error(why);
}

/** Ends its thread, as a crash would. */
export function die(_input: Record<string, never>): never {
  process.exit(1);
}
