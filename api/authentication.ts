import type { Request, RequestHandler } from 'express';

import { API_KEY_PATTERN, environmentOfKey, hashApiKey } from '../domain/api-keys';
import type { Environment } from '../domain/environment';
import type { Config } from '../platform/config';
import type { Actor } from '../services/audit';
import type { RateLimiter } from '../services/rate-limits';
import type { UsageCounters } from '../services/usage';
import type { Store } from '../store';
import { ApiError, type ErrorCode } from './errors';
import { enforceLimit } from './rate-limiting';

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
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthContext;
    }
  }
}

function authenticationFailed(req: Request, code: Extract<ErrorCode, 'missing_api_key' | 'invalid_api_key'>, message: string): ApiError {
  return new ApiError(code, message, {
    headers: { 'WWW-Authenticate': `Bearer resource_metadata="${req.origin}/.well-known/oauth-protected-resource"` },
  });
}

/**
 * The chain every non-public endpoint runs: who is calling (401/403), then the
 * per-key rate limit (429), then the day's API-call counter.
 */
export function authentication(store: Store, config: Config, limiter: RateLimiter, usage: UsageCounters): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!bearer) throw authenticationFailed(req, 'missing_api_key', 'Send your API key as `Authorization: Bearer <API_KEY>`.');
    const key = bearer[1]!;
    if (!API_KEY_PATTERN.test(key)) throw authenticationFailed(req, 'invalid_api_key', 'This is not an API key of this service.');

    const keyHash = hashApiKey(key);
    const unknownKey = () => authenticationFailed(req, 'invalid_api_key', 'This API key is unknown or has been revoked.');
    const record = await store.apiKeys.findById(keyHash).lean();
    if (!record || record.revoked_at) throw unknownKey();
    if (environmentOfKey(key) !== req.environment) {
      throw new ApiError(
        'wrong_environment',
        req.environment === 'live'
          ? 'This is a sandbox key (ps_test_); use it on the sandbox host, or create a live key.'
          : 'This is a live key (ps_live_); use it on the live host.',
      );
    }
    const account = await store.accounts.findById(record.account_id).lean();
    if (!account) throw unknownKey();
    if (account.status !== 'active') throw new ApiError('disabled_account', 'This account is disabled. Contact support.');

    req.auth = {
      accountId: account._id,
      email: account.email,
      keyHash,
      keyPrefix: record.prefix,
      workspaceId: record.workspace_id,
      companyId: record.company_id ?? null,
      environment: req.environment,
      actor: { accountId: account._id, keyPrefix: record.prefix },
    };
    const max = account.rate_limit_per_minute ?? (req.environment === 'live' ? config.RATE_LIMIT_LIVE : config.RATE_LIMIT_SANDBOX);
    await enforceLimit(limiter, res, { subject: `key:${keyHash}`, max, windowMs: 60_000, what: 'this API key' });
    await usage.count(account._id, 'api_calls');
    next();
  };
}
