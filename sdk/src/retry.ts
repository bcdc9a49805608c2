/**
 * A fetch that tries again on 429 and 5xx answers (and on network errors),
 * waiting what `Retry-After` says, else backing off exponentially with
 * jitter, at most `maxRetries` times.
 *
 * A POST is repeated only when it carries an `Idempotency-Key`: the service
 * then answers a repeat with the first result, so nothing is sent twice. The
 * SDK's own POSTs always carry one (see client.ts); a caller's fetch of a POST
 * without one gets the first answer, never a second request.
 */

export interface RetryOptions {
  maxRetries: number;
  /** The longest wait between attempts; a `Retry-After` beyond it is not waited for (the error is returned). */
  maxDelayMs?: number;
  /** The first backoff when the answer names no wait. */
  initialDelayMs?: number;
  /** How to wait (tests pass a faster clock); ends early, rejecting, when the request is aborted. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const RETRIED_STATUS = (status: number) => status === 429 || status >= 500;

/** Waits `ms`, unless the caller aborts the request meanwhile: then no further attempt is made. */
export const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal.addEventListener('abort', aborted, { once: true });
  });

/**
 * `Retry-After` in milliseconds: seconds, or an HTTP date; undefined when absent or unreadable.
 * @internal
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const mayRepeat = (request: Request) => request.method !== 'POST' || request.headers.has('idempotency-key');

export function retryingFetch(
  fetchOnce: (request: Request) => Promise<Response>,
  options: RetryOptions,
): (request: Request) => Promise<Response> {
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const initialDelayMs = options.initialDelayMs ?? 500;
  const sleep = options.sleep ?? wait;

  return async (request) => {
    const repeatable = mayRepeat(request);
    for (let attempt = 0; ; attempt += 1) {
      const last = !repeatable || attempt >= options.maxRetries;
      // Each attempt sends its own copy: a body can be read once.
      const outcome = await fetchOnce(last ? request : request.clone()).then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      );
      if ('response' in outcome && !RETRIED_STATUS(outcome.response.status)) return outcome.response;
      if (last) {
        if ('response' in outcome) return outcome.response;
        throw outcome.error;
      }
      const asked = 'response' in outcome ? retryAfterMs(outcome.response.headers.get('retry-after')) : undefined;
      if (asked !== undefined && asked > maxDelayMs && 'response' in outcome) return outcome.response;
      const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
      // The answer is dropped; read it so the connection can be reused.
      if ('response' in outcome) await outcome.response.body?.cancel();
      await sleep(asked ?? backoff, request.signal);
    }
  };
}
