import type { Request, Response } from 'express';

import type { Environment } from '../../../domain/environment';
import {
  CSRF_COOKIE,
  hashToken,
  SESSION_COOKIE,
  setCookie,
  SESSION_TTL_MS,
  SIGN_IN_LINK_TTL_MS,
} from '../../../domain/sessions';
import type { Logger } from '../../../platform/logger';
import type { RateLimiter } from '../../../services/rate-limits';
import { endSession, issueSignInLink, redeemSignInLink, sendSignInEmail } from '../../../services/sessions';
import type { Store } from '../../../store';
import { ApiError } from '../../http/errors';
import { z } from '../../contract/openapi';
import { enforceLimits, perIpLimit } from '../rate-limiting';
import type { RouteTable } from '../route-table';
import { emailAddress } from '../../contract/schemas';

/**
 * Signing in to the web app (`/app`) by a one-time link sent by email: the
 * app's only routes besides the public API, which it then calls with its
 * session cookie instead of a key.
 */

interface SessionLimits {
  /** Sign-in emails per address per hour. */
  linksPerAddress: number;
  /** Sign-in requests (links asked for, links spent) per IP address per hour. */
  perIp: number;
}

const linkRequest = z.object({ email: emailAddress }).strict().openapi('SignInLinkRequest');
const linkAnswer = z.object({ message: z.string() }).openapi('SignInLinkAnswer');
const sessionRequest = z
  .object({ token: z.string().max(100).openapi({ description: 'The token of the emailed link (after `#token=`)' }) })
  .strict()
  .openapi('SessionRequest');
const sessionAnswer = z
  .object({
    account_id: z.string(),
    expires_at: z.string().openapi({ format: 'date-time' }),
    csrf_token: z.string().openapi({
      description: `Also in the \`${CSRF_COOKIE}\` cookie: send it as the \`X-CSRF-Token\` header with every change`,
    }),
  })
  .openapi('Session');

const signedInAnswer = z
  .object({
    account_id: z.string(),
    workspace_id: z.string().openapi({
      description:
        'The workspace the request acts in (a session: the one `X-Workspace-Id` names, else the account\u2019s first)',
    }),
    environment: z
      .enum(['sandbox', 'live'])
      .openapi({ description: 'The environment of this host: a session and a key each belong to one' }),
    via: z.enum(['session', 'api_key']),
    apps: z
      .object({ sandbox: z.string().openapi({ format: 'uri' }), live: z.string().openapi({ format: 'uri' }) })
      .openapi({
        description:
          'The web app of each environment; a session of one does not sign in to the other (each host has its own)',
      }),
  })
  .openapi('SignedIn');

const LINK_SENT = `If an account uses this address, a sign-in link is on its way to it. The link works once, within ${SIGN_IN_LINK_TTL_MS / 60_000} minutes.`;

/** The session's cookies set, or (null) removed; Secure where the public origin is HTTPS. */
function setSessionCookies(req: Request, res: Response, session: { token: string; csrfToken: string } | null): void {
  const maxAgeMs = session ? SESSION_TTL_MS : 0;
  const secure = req.origin.startsWith('https:');
  res.append('Set-Cookie', setCookie(SESSION_COOKIE, session?.token ?? '', { maxAgeMs, secure, httpOnly: true }));
  res.append('Set-Cookie', setCookie(CSRF_COOKIE, session?.csrfToken ?? '', { maxAgeMs, secure, httpOnly: false }));
}

/** Sign-in requests per IP address and hour: one counter, whichever route counts. */
const signInPerIp = (limiter: RateLimiter, limits: SessionLimits) =>
  perIpLimit(limiter, 'sign-in', limits.perIp, 3_600_000, 'sign-in requests per IP address per hour');

interface SessionRouteDependencies {
  store: Store;
  limiter: RateLimiter;
  logger: Logger;
  smtpUrl: string | undefined;
  mailFrom: string;
  limits: SessionLimits;
  origins: Record<Environment, string>;
}

export function sessionRoutes(routes: RouteTable, deps: SessionRouteDependencies): void {
  requestSignInLinkRoute(routes, deps);
  startSessionRoute(routes, deps);
  getSignedInRoute(routes, deps);
  endSessionRoute(routes, deps);
}

function requestSignInLinkRoute(routes: RouteTable, deps: SessionRouteDependencies): void {
  const { store, limiter, logger, limits } = deps;
  routes.add({
    method: 'post',
    path: '/v1/sign-in-links',
    operationId: 'requestSignInLink',
    summary: 'Email a one-time link that signs in to the web app',
    description:
      `No key needed. The answer is the same whether or not an account uses the address, and comes before the email is sent. ` +
      `At most ${limits.linksPerAddress} links per address and ${limits.perIp} sign-in requests per IP address per hour. ` +
      'The link opens `/app/sign-in` on this host, with its token after `#token=`.',
    tags: ['Sessions'],
    public: true,
    before: [signInPerIp(limiter, limits)],
    body: linkRequest,
    input: { missingCode: 'invalid_field' },
    responses: {
      202: { description: 'Asked for; a link follows when an account uses the address', schema: linkAnswer },
    },
    errors: ['rate_limit_exceeded'],
    handler: async ({ body, req, res }) => {
      const address = body.email.toLowerCase();
      await enforceLimits(
        limiter,
        res,
        [
          {
            subject: `sign-in-email:${hashToken(address)}`,
            limit: limits.linksPerAddress,
            windowMs: 3_600_000,
            what: 'sign-in links per address per hour',
          },
        ],
        { headers: false },
      );
      const link = await issueSignInLink(store, address, req.environment);
      const { smtpUrl } = deps;
      if (link && smtpUrl) {
        // Not awaited: the answer must not take longer for an address that has an account.
        sendSignInEmail({ smtpUrl, mailFrom: deps.mailFrom }, link.email, `${req.origin}/app`, link.token).catch(
          (err: unknown) => logger.warn({ err }, 'sign-in email not sent'),
        );
      } else if (link) {
        logger.warn('a sign-in link was asked for, but no SMTP_URL is set to send it');
      }
      return { status: 202, body: { message: LINK_SENT } };
    },
  });
}

function startSessionRoute(routes: RouteTable, deps: SessionRouteDependencies): void {
  const { store, limiter, limits } = deps;
  routes.add({
    method: 'post',
    path: '/v1/sessions',
    operationId: 'startSession',
    summary: 'Spend a sign-in link: a session cookie for the web app',
    description:
      `No key needed. A link works once: a second use is refused, as is one older than ${SIGN_IN_LINK_TTL_MS / 60_000} minutes or one sent on the other host (sandbox or live). ` +
      `The session lasts ${SESSION_TTL_MS / 3_600_000} hours, in the \`${SESSION_COOKIE}\` cookie (HttpOnly, SameSite=Lax, Secure on HTTPS). ` +
      'With it, every route of this API answers as it does for a key of the account, in the workspace named by the `X-Workspace-Id` header (the account’s first without it); ' +
      `each request that changes something sends the \`${CSRF_COOKIE}\` cookie's value as \`X-CSRF-Token\`, or is refused with \`csrf_token_invalid\`.`,
    tags: ['Sessions'],
    public: true,
    before: [signInPerIp(limiter, limits)],
    body: sessionRequest,
    input: { missingCode: 'invalid_field' },
    responses: { 201: { description: 'Signed in; the cookies are set', schema: sessionAnswer } },
    errors: ['sign_in_link_invalid', 'rate_limit_exceeded'],
    handler: async ({ body, req, res }) => {
      const session = await redeemSignInLink(store, body.token, req.environment);
      if (!session)
        throw new ApiError(
          'sign_in_link_invalid',
          'This sign-in link is unknown, was used already or has expired. Ask for a new one.',
          { param: 'token' },
        );
      setSessionCookies(req, res, session);
      return {
        status: 201,
        body: {
          account_id: session.accountId,
          expires_at: session.expiresAt.toISOString(),
          csrf_token: session.csrfToken,
        },
      };
    },
  });
}

function getSignedInRoute(routes: RouteTable, deps: SessionRouteDependencies): void {
  routes.add({
    method: 'get',
    path: '/v1/sessions/current',
    operationId: 'getSignedIn',
    summary:
      'Who and where this request is signed in: account, workspace, environment, and the web app of each environment',
    description:
      'Answers for a session and for an API key alike (`via`). The web app reads it to show the environment it is in and to offer the other one.',
    tags: ['Sessions'],
    responses: { 200: { description: 'Signed in', schema: signedInAnswer } },
    handler: ({ auth }) => ({
      status: 200,
      body: {
        account_id: auth.accountId,
        workspace_id: auth.workspaceId,
        environment: auth.environment,
        via: auth.keyHash.startsWith('session:') ? ('session' as const) : ('api_key' as const),
        apps: { sandbox: `${deps.origins.sandbox}/app`, live: `${deps.origins.live}/app` },
      },
    }),
  });
}

function endSessionRoute(routes: RouteTable, deps: SessionRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'delete',
    path: '/v1/sessions/current',
    operationId: 'endSession',
    summary: 'Sign out: end the session this request is made with',
    description:
      'Its cookies are removed. Called with an API key, nothing ends: a key is revoked with `DELETE /v1/account/keys/{prefix}`.',
    tags: ['Sessions'],
    responses: { 204: { description: 'Signed out' } },
    handler: async ({ auth, req, res }) => {
      if (auth.keyHash.startsWith('session:')) await endSession(store, auth.keyHash.slice('session:'.length));
      setSessionCookies(req, res, null);
      res.status(204).end();
    },
  });
}
