import type { RequestHandler, Response } from 'express';

import { addressBucket } from '../../domain/client-address';
import type { RateLimiter, Window, WindowState } from '../../services/rate-limits';
import { ApiError } from '../http/errors';

/** Both header families on every counted response: the IETF draft's and the older X- form. */
function applyHeaders(res: Response, state: WindowState, now = Date.now()): void {
  const resetSeconds = Math.max(0, Math.ceil((state.resetAt - now) / 1000));
  res.setHeader('RateLimit-Limit', String(state.limit));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(resetSeconds));
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(state.resetAt / 1000)));
}

export interface Limit extends Window {
  /** Named in the 429 message, e.g. "this API key". */
  what: string;
}

/**
 * Counts the request against each limit (one write for all); answers 429
 * with Retry-After past the first that is full. Sets the rate-limit headers
 * from the first limit unless told not to.
 */
export async function enforceLimits(
  limiter: RateLimiter,
  res: Response,
  limits: readonly [Limit, ...Limit[]],
  options: { headers?: boolean } = {},
): Promise<void> {
  const now = Date.now();
  const states = await limiter.hit(limits, { now });
  if (options.headers !== false) applyHeaders(res, states[0]!, now);
  const last = states.at(-1)!;
  if (last.exceeded) {
    const limit = limits[states.length - 1]!;
    const retryAfter = Math.max(1, Math.ceil((last.resetAt - now) / 1000));
    throw new ApiError(
      'rate_limit_exceeded',
      `Too many requests: ${limit.what} allows ${limit.limit}. Retry in ${retryAfter} s.`,
      {
        headers: { 'Retry-After': String(retryAfter) },
        details: { limit: limit.limit, retry_after_seconds: retryAfter },
      },
    );
  }
}

/**
 * A per-client-address limit (signup, lookup); the address honours
 * X-Forwarded-For only from trusted proxies, and IPv6 counts by /64.
 */
export function perIpLimit(
  limiter: RateLimiter,
  name: string,
  max: number,
  windowMs: number,
  what: string,
): RequestHandler {
  return async (req, res, next) => {
    await enforceLimits(limiter, res, [{ subject: `${name}:${addressBucket(req.ip)}`, limit: max, windowMs, what }]);
    next();
  };
}
