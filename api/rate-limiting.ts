import type { RequestHandler, Response } from 'express';

import type { RateLimiter, WindowState } from '../services/rate-limits';
import { ApiError } from './errors';

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

/** Counts one request against `subject`; answers 429 with Retry-After past the limit. */
export async function enforceLimit(
  limiter: RateLimiter,
  res: Response,
  limit: { subject: string; max: number; windowMs: number; what: string },
): Promise<void> {
  const now = Date.now();
  const state = await limiter.hit(limit.subject, limit.max, limit.windowMs, now);
  applyHeaders(res, state, now);
  if (state.exceeded) {
    const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
    throw new ApiError('rate_limit_exceeded', `Too many requests: ${limit.what} allows ${limit.max}. Retry in ${retryAfter} s.`, {
      headers: { 'Retry-After': String(retryAfter) },
      details: { limit: limit.max, retry_after_seconds: retryAfter },
    });
  }
}

/** A per-client-IP limit (signup, lookup); the IP honours X-Forwarded-For only from trusted proxies. */
export function perIpLimit(limiter: RateLimiter, name: string, max: number, windowMs: number): RequestHandler {
  return async (req, res, next) => {
    await enforceLimit(limiter, res, { subject: `${name}:${req.ip ?? 'unknown'}`, max, windowMs, what: `${name} per IP address per hour` });
    next();
  };
}
