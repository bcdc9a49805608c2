import { displayPrefix, generateApiKey, hashApiKey } from '../domain/api-keys';
import type { Environment } from '../domain/environment';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { recordAudit, type Actor } from './audit';

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
  options: { accountId: string; workspaceId: string; environment: Environment; companyId: string | null; label: string },
): Promise<NewApiKey> {
  for (;;) {
    const key = generateApiKey(options.environment);
    const prefix = displayPrefix(key);
    try {
      await store.apiKeys.create({
        _id: hashApiKey(key),
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

/** Revokes the account's own active key by prefix; false when there is none to revoke. */
export async function revokeApiKey(store: Store, actor: Actor, prefix: string): Promise<boolean> {
  const revoked = await store.apiKeys.findOneAndUpdate(
    { prefix, account_id: actor.accountId, revoked_at: null },
    { $set: { revoked_at: new Date() } },
    { new: true },
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
