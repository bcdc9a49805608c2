import { createHash, timingSafeEqual } from 'node:crypto';

import { randomBase62 } from './ids';

/**
 * Signing in to the web app: a one-time link sent by email opens a session
 * held in an HttpOnly cookie. Link tokens, session tokens and CSRF tokens are
 * 256-bit random strings; only their SHA-256 hashes are stored, as for API
 * keys, so a copy of the database signs nobody in.
 */

/** How long an emailed link works, once. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** How long a session lasts from its sign-in; signing in again starts a new one. */
export const SESSION_TTL_MS = 12 * 3_600_000;

/** The cookie that carries the session: HttpOnly, never readable by the page's scripts. */
export const SESSION_COOKIE = 'einvoice_session';
/** The cookie the app reads its CSRF token from, to send back as {@link CSRF_HEADER} with every change. */
export const CSRF_COOKIE = 'einvoice_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** The header a session names the workspace it acts in by (its account's own when absent). */
export const WORKSPACE_HEADER = 'x-workspace-id';

const TOKEN = /^[0-9A-Za-z]{43}$/;

export const newToken = (): string => randomBase62(43);
export const isToken = (value: string | undefined): value is string => value !== undefined && TOKEN.test(value);
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether a presented token is the one whose hash is stored, compared in constant time. */
export function tokenMatches(presented: string | undefined, storedHash: string): boolean {
  if (!isToken(presented)) return false;
  const given = Buffer.from(hashToken(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The value of one cookie of a Cookie header (RFC 6265 pairs `name=value; …`). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of header?.split(';') ?? []) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** A Set-Cookie value for the app's cookies: host-only, for the whole origin, Secure on HTTPS; `maxAgeMs` 0 removes it. */
export function setCookie(
  name: string,
  value: string,
  { maxAgeMs, secure, httpOnly }: { maxAgeMs: number; secure: boolean; httpOnly: boolean },
): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${Math.floor(maxAgeMs / 1000)}`,
    // Lax: the emailed link opens the app with its cookies; a form another site posts does not carry them.
    'SameSite=Lax',
    ...(httpOnly ? ['HttpOnly'] : []),
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
