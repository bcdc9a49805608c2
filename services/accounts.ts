import { newId } from '../domain/ids';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { membershipId } from '../store/memberships';
import { issueApiKey, type NewApiKey } from './api-keys';
import { RuleError } from './errors';
import { createWorkspace } from './workspaces';

export interface SignupResult {
  account: { id: string; email: string; name: string | null; status: string };
  workspaceId: string;
  key: NewApiKey;
}

/**
 * Account, personal workspace (the account as owner) and a sandbox key. The
 * unique index on the lower-cased email decides concurrent signups; without
 * transactions, a failure after the account insert undoes what was written so
 * the email can sign up again.
 */
export async function signup(store: Store, input: { email: string; name?: string | undefined }): Promise<SignupResult> {
  const now = new Date();
  const accountId = newId('account');
  const workspaceId = newId('workspace');
  try {
    await store.accounts.create({
      _id: accountId,
      email: input.email,
      email_key: input.email.toLowerCase(),
      name: input.name ?? null,
      created_at: now,
    });
  } catch (err) {
    if (isDuplicateKey(err))
      throw new RuleError('email_taken', 'An account with this email exists already.', { param: 'email' });
    throw err;
  }
  try {
    const actor = { accountId, keyPrefix: null };
    await createWorkspace(store, actor, input.name ? `${input.name}'s workspace` : 'Personal workspace', workspaceId);
    const key = await issueApiKey(store, actor, {
      accountId,
      workspaceId,
      environment: 'sandbox',
      companyId: null,
      label: 'signup',
    });
    return {
      account: { id: accountId, email: input.email, name: input.name ?? null, status: 'active' },
      workspaceId,
      key,
    };
  } catch (err) {
    await Promise.allSettled([
      store.apiKeys.deleteMany({ account_id: accountId }),
      store.memberships.deleteOne({ _id: membershipId(workspaceId, accountId) }),
      store.workspaces.deleteOne({ _id: workspaceId }),
      store.accounts.deleteOne({ _id: accountId }),
    ]);
    throw err;
  }
}

export async function findAccount(store: Store, accountId: string) {
  return store.accounts.findById(accountId).lean();
}
