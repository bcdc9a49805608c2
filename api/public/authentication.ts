import type { Request, RequestHandler, Response } from 'express';

import { API_KEY_PATTERN, environmentOfKey, hashApiKey } from '../../domain/api-keys';
import { addressBucket } from '../../domain/client-address';
import type { Environment } from '../../domain/environment';
import type { Config } from '../../platform/config';
import { cookieValue, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, WORKSPACE_HEADER } from '../../domain/sessions';
import { findKeyWithAccount } from '../../services/api-keys';
import { workspaceNotFound } from '../../services/errors';
import { findSession, sessionWorkspace } from '../../services/sessions';
import type { Actor } from '../../services/audit';
import type { RateLimiter } from '../../services/rate-limits';
import type { UsageCounters } from '../../services/usage';
import type { Store } from '../../store';
import { ApiError, type ErrorCode } from '../http/errors';
import { enforceLimits } from './rate-limiting';

export interface AuthContext {
  accountId: string;
  email: string;
  keyHash: string;
  keyPrefix: string;
  /** The key's home workspace: "the caller's workspace". */
  workspaceId: string;
  /** A key may be limited to one company. */
  companyId: string | null;
  environment: Environment;
  actor: Actor;
  /** Requests per minute this caller's key (and, twice that, account) may make. */
  perMinute: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

/** The account, when it is active: a disabled account calls nothing. */
function activeAccount<T extends { status: string }>(account: T | null | undefined): T {
  if (account?.status !== 'active')
    throw new ApiError('disabled_account', 'This account is disabled. Contact support.');
  return account;
}

/** Methods that change nothing, which a session may use without its CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the audit trail and a document's history name as the "key" of a change made in the web app. */
const SESSION_KEY_PREFIX = 'app';

/**
 * The chain every non-public endpoint runs: who is calling (401/403), then
 * the per-key and per-account rate limits (429), then the day's API-call
 * counter. Failed authentications are counted per client address, so
 * guessing keys or flooding with unknown ones is limited too.
 */
export function authentication(
  store: Store,
  config: Config,
  limiter: RateLimiter,
  usage: UsageCounters,
): RequestHandler {
  const gate: Gate = { store, config, limiter };
  return async (req, res, next) => {
    const header = req.headers.authorization;
    // A key when one is sent; else the web app's session cookie.
    const sessionToken = header ? undefined : cookieValue(req.headers.cookie, SESSION_COOKIE);
    req.auth =
      sessionToken === undefined
        ? await keyAuth(gate, req, res, header)
        : await sessionAuth(gate, req, res, sessionToken);
    await enforceRequestLimits(limiter, req, res);
    usage.count(req.auth.accountId, 'api_calls');
    next();
  };
}

/** What the chain reads and counts with. */
interface Gate {
  store: Store;
  config: Config;
  limiter: RateLimiter;
}

/** A failed authentication, counted against the client address before it is answered. */
async function failed(
  { config, limiter }: Gate,
  req: Request,
  res: Response,
  code: Extract<ErrorCode, 'missing_api_key' | 'invalid_api_key' | 'session_ended'>,
  message: string,
): Promise<ApiError> {
  await enforceLimits(
    limiter,
    res,
    [
      {
        subject: `auth-failure:${addressBucket(req.ip)}`,
        limit: config.AUTH_FAILURE_LIMIT,
        windowMs: 60_000,
        what: 'failed authentication per address',
      },
    ],
    { headers: false },
  );
  return new ApiError(code, message, {
    headers: { 'WWW-Authenticate': `Bearer resource_metadata="${req.origin}/.well-known/oauth-protected-resource"` },
  });
}

/** An account's requests per minute: its own rate, else the environment's. */
const perMinuteOf = (
  config: Config,
  req: Request,
  account: { rate_limit_per_minute?: number | null | undefined },
): number =>
  account.rate_limit_per_minute ?? (req.environment === 'live' ? config.RATE_LIMIT_LIVE : config.RATE_LIMIT_SANDBOX);

/**
 * A request of the web app: its session cookie, in the environment it was opened in; every change carries the
 * session's CSRF token, which a page of another site cannot read.
 */
async function sessionAuth(gate: Gate, req: Request, res: Response, token: string): Promise<AuthContext> {
  const { store, config } = gate;
  const session = await findSession(store, token, req.environment);
  if (!session)
    throw await failed(gate, req, res, 'session_ended', 'This session has ended or was signed out; sign in again.');
  if (!SAFE_METHODS.has(req.method) && !session.csrfMatches(req.get(CSRF_HEADER))) {
    throw new ApiError(
      'csrf_token_invalid',
      `A change made with a session must send the value of the ${CSRF_COOKIE} cookie as the ${CSRF_HEADER} header.`,
    );
  }
  const account = activeAccount(await store.accounts.findById(session.accountId).lean());
  const named = req.get(WORKSPACE_HEADER);
  const workspace = await sessionWorkspace(store, account._id, named);
  if (!workspace) throw workspaceNotFound(named ?? '(none)');
  return {
    accountId: account._id,
    email: account.email,
    keyHash: `session:${session.hash}`,
    keyPrefix: SESSION_KEY_PREFIX,
    workspaceId: workspace.workspace._id,
    companyId: null,
    environment: req.environment,
    actor: { accountId: account._id, keyPrefix: SESSION_KEY_PREFIX },
    perMinute: perMinuteOf(config, req, account),
  };
}

/** A request with an API key: `Authorization: Bearer <key>`, a key of this environment. */
async function keyAuth(gate: Gate, req: Request, res: Response, header: string | undefined): Promise<AuthContext> {
  const { store, config } = gate;
  const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!bearer)
    throw await failed(gate, req, res, 'missing_api_key', 'Send your API key as `Authorization: Bearer <API_KEY>`.');
  const key = bearer[1]!;
  if (!API_KEY_PATTERN.test(key))
    throw await failed(gate, req, res, 'invalid_api_key', 'This is not an API key of this service.');

  const keyHash = hashApiKey(key);
  const found = await findKeyWithAccount(store, keyHash);
  if (!found) throw await failed(gate, req, res, 'invalid_api_key', 'This API key is unknown or has been revoked.');
  const record = found.key;
  if (environmentOfKey(key) !== req.environment) {
    throw new ApiError(
      'wrong_environment',
      req.environment === 'live'
        ? 'This is a sandbox key (ps_test_); use it on the sandbox host, or create a live key.'
        : 'This is a live key (ps_live_); use it on the live host.',
    );
  }
  const account = activeAccount(found.account);
  return {
    accountId: account._id,
    email: account.email,
    keyHash,
    keyPrefix: record.prefix,
    workspaceId: record.workspace_id,
    companyId: record.company_id ?? null,
    environment: req.environment,
    actor: { accountId: account._id, keyPrefix: record.prefix },
    perMinute: perMinuteOf(config, req, account),
  };
}

/**
 * Counts the request (a batch is one request, as the spec's Limits say)
 * against the key's window and the account's (twice the key's: a second
 * key adds no budget beyond it), both in one write. The key's window sets
 * the headers.
 */
async function enforceRequestLimits(limiter: RateLimiter, req: Request, res: Response): Promise<void> {
  const auth = req.auth!;
  await enforceLimits(limiter, res, [
    { subject: `key:${auth.keyHash}`, limit: auth.perMinute, windowMs: 60_000, what: 'this API key' },
    {
      subject: `account:${auth.accountId}:${auth.environment}`,
      limit: auth.perMinute * 2,
      windowMs: 60_000,
      what: 'this account (all its keys together)',
    },
  ]);
}
