import { displayPrefix, generateApiKey, hashApiKey } from '../domain/api-keys';
import type { Environment } from '../domain/environment';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { recordAudit, type Actor } from './audit';
import { RuleError } from './errors';

/** Active keys an account may hold; enough for rotation and per-system keys, few enough that keys cannot multiply a budget. */
const MAX_ACTIVE_KEYS = 25;

export interface NewApiKey {
  api_key: string;
  prefix: string;
  sandbox: boolean;
  company_id: string | null;
  label: string;
  workspace_id: string;
}

/**
 * Mints a key and stores only its hash. The displayed prefix is unique; in the
 * (astronomically rare) case two keys share one, a fresh key is drawn.
 */
export async function issueApiKey(
  store: Store,
  actor: Actor,
  options: {
    accountId: string;
    workspaceId: string;
    environment: Environment;
    companyId: string | null;
    label: string;
  },
): Promise<NewApiKey> {
  // Checked before the insert, so two concurrent creations may pass one over the cap; the per-account rate limit bounds what that buys.
  if ((await store.apiKeys.countDocuments({ account_id: options.accountId, revoked_at: null })) >= MAX_ACTIVE_KEYS) {
    throw new RuleError(
      'key_limit_reached',
      `An account holds at most ${MAX_ACTIVE_KEYS} active keys; revoke one first.`,
    );
  }
  const account = await store.accounts.findById(options.accountId).lean();
  if (!account) throw new Error(`account ${options.accountId} does not exist`);
  for (;;) {
    const key = generateApiKey(options.environment);
    const prefix = displayPrefix(key);
    const keyHash = hashApiKey(key);
    try {
      await store.apiKeys.create({
        _id: keyHash,
        account: callerAccount(account),
        prefix,
        account_id: options.accountId,
        workspace_id: options.workspaceId,
        company_id: options.companyId,
        label: options.label,
        sandbox: options.environment === 'sandbox',
        created_at: new Date(),
      });
    } catch (err) {
      if (isDuplicateKey(err)) continue;
      throw err;
    }
    await settleKeyAccount(store, keyHash, options.accountId, callerAccount(account));
    await recordAudit(store, actor, {
      action: 'api_key.created',
      workspaceId: options.workspaceId,
      target: { type: 'api_key', id: prefix },
      details: { label: options.label, sandbox: options.environment === 'sandbox', company_id: options.companyId },
    });
    return {
      api_key: key,
      prefix,
      sandbox: options.environment === 'sandbox',
      company_id: options.companyId,
      label: options.label,
      workspace_id: options.workspaceId,
    };
  }
}

/**
 * Revokes the account's own active key by prefix (only one limited to
 * `onlyCompanyId`, when given); false when there is none to revoke. One
 * conditional update decides: of concurrent revocations one wins, and only
 * it writes the audit event.
 */
export async function revokeApiKey(
  store: Store,
  actor: Actor,
  prefix: string,
  onlyCompanyId: string | null = null,
): Promise<boolean> {
  const revoked = await store.apiKeys.findOneAndUpdate(
    { prefix, account_id: actor.accountId, revoked_at: null, ...(onlyCompanyId && { company_id: onlyCompanyId }) },
    { $set: { revoked_at: new Date() } },
    { returnDocument: 'after' },
  );
  if (!revoked) return false;
  await recordAudit(store, actor, {
    action: 'api_key.revoked',
    workspaceId: revoked.workspace_id,
    target: { type: 'api_key', id: prefix },
  });
  return true;
}

/** Revokes every key an account has at home in a workspace (member removal, workspace deletion). */
export async function revokeKeysOfMember(store: Store, workspaceId: string, accountId?: string): Promise<number> {
  const { modifiedCount } = await store.apiKeys.updateMany(
    { workspace_id: workspaceId, ...(accountId && { account_id: accountId }), revoked_at: null },
    { $set: { revoked_at: new Date() } },
  );
  return modifiedCount;
}

/** The account's active keys, oldest first (prefixes only: the keys themselves are not stored). */
export async function activeKeysOf(store: Store, accountId: string) {
  return store.apiKeys.find({ account_id: accountId, revoked_at: null }).sort({ created_at: 1 }).lean();
}

/** What a request needs of an account, as its keys carry it. */
export type CallerAccount = ReturnType<typeof callerAccount>;

const callerAccount = (account: { email: string; status: string; rate_limit_per_minute?: number | null }) => ({
  email: account.email,
  status: account.status,
  rate_limit_per_minute: account.rate_limit_per_minute ?? null,
});

/**
 * A new key copied its account's fields before a concurrent change could
 * reach it: read the account again after the insert and correct the copy.
 * A change made after this read found the key in place (it updates every key
 * of the account after the account), so either way the key ends current.
 */
async function settleKeyAccount(
  store: Store,
  keyHash: string,
  accountId: string,
  copied: CallerAccount,
): Promise<void> {
  const now = await store.accounts.findById(accountId).lean();
  if (now && JSON.stringify(callerAccount(now)) !== JSON.stringify(copied)) {
    await store.apiKeys.updateOne({ _id: keyHash }, { $set: { account: callerAccount(now) } });
  }
}

/** After a change of the account's status, email or rate limit: every key of the account carries it from the next request on. */
export async function refreshKeysOfAccount(store: Store, accountId: string): Promise<void> {
  const account = await store.accounts.findById(accountId).lean();
  if (account) await store.apiKeys.updateMany({ account_id: accountId }, { $set: { account: callerAccount(account) } });
}

/** The key with this hash and what a request needs of its account, when the key is not revoked: one read (two for keys older than the copy). */
export async function findKeyWithAccount(
  store: Store,
  keyHash: string,
): Promise<{
  key: { prefix: string; workspace_id: string; company_id?: string | null; account_id: string };
  account: CallerAccount & { _id: string };
} | null> {
  const key = await store.apiKeys.findById(keyHash).lean();
  if (!key || key.revoked_at) return null;
  const account = key.account ?? (await store.accounts.findById(key.account_id).lean());
  return account ? { key, account: { _id: key.account_id, ...callerAccount(account) } } : null;
}
