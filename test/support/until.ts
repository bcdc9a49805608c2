/** What a timed-out wait last read, short enough for a test's failure message. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/**
 * The tests' one way to wait for something: reads until `done` holds and returns that reading, or throws once
 * `timeoutMs` has passed, naming `what` it waited for and the last reading (a wait never passes silently). An
 * error of `read` ends the wait at once, which is how a caller gives up early (a process that exited).
 * `intervalMs` is only the pace of reading.
 */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`waited ${Math.round(timeoutMs / 1000)} s for ${what}; last read: ${shown(value)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
