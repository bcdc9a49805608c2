import { randomBytes } from 'node:crypto';

import { eurosToUnits, unitsToEuros } from '../../domain/credits';
import type { Store } from '../../store';
import { refreshKeysOfAccount } from '../api-keys';
import { recordAudit, type Actor } from '../audit';
import { applyCreditOperation, ledgerTotals, settleMarks } from '../credits/operations';

/**
 * What an operator does to workspaces and accounts (the ops CLI), each step
 * recorded in the audit trail under the operator's name. A refusal is an
 * OperatorError: one line that says what is wrong.
 */

export class OperatorError extends Error {
  override name = 'OperatorError';
}

/** The audit trail's actor for an operator: `operator:<name>`, no key. */
export const operatorActor = (name: string): Actor => ({ accountId: `operator:${name}`, keyPrefix: null });

/** The workspace an operator names; one that does not exist (or was deleted) is refused in one line. */
export async function existingWorkspace(store: Store, workspaceId: string) {
  const workspace = await store.workspaces.findById(workspaceId).lean();
  if (!workspace || workspace.deleted_at) throw new OperatorError(`no workspace ${workspaceId}`);
  return workspace;
}

export async function addCredits(store: Store, operator: Actor, workspaceId: string, euros: string): Promise<string> {
  await existingWorkspace(store, workspaceId);
  let units: number;
  try {
    units = eurosToUnits(euros);
  } catch (err) {
    throw new OperatorError((err as Error).message);
  }
  if (units === 0) throw new OperatorError('the amount must be above 0');
  const id = `topup:${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;
  const result = await applyCreditOperation(store, workspaceId, {
    id,
    kind: 'top_up',
    amountUnits: units,
    actor: operator.accountId,
  });
  await recordAudit(store, operator, {
    action: 'credits.added',
    workspaceId,
    target: { type: 'workspace', id: workspaceId },
    details: { amount: unitsToEuros(units), ledger_id: id },
  });
  return unitsToEuros(result.balanceUnits);
}

export async function showCredits(store: Store, workspaceId: string) {
  const workspace = await existingWorkspace(store, workspaceId);
  await settleMarks(store, workspaceId);
  const totals = await ledgerTotals(store, workspaceId);
  return {
    balance: unitsToEuros(totals.balanceUnits),
    ledger_total: unitsToEuros(totals.ledgerUnits),
    ledger_entries: totals.entries,
    consistent: totals.ledgerUnits === totals.balanceUnits,
    document_price:
      workspace.document_price_units === null || workspace.document_price_units === undefined
        ? null
        : unitsToEuros(workspace.document_price_units),
  };
}

/** The workspace's own price of a live document; `default` goes back to LIVE_DOCUMENT_PRICE. */
export async function setDocumentPrice(
  store: Store,
  operator: Actor,
  workspaceId: string,
  euros: string,
): Promise<void> {
  await existingWorkspace(store, workspaceId);
  let units: number | null = null;
  if (euros !== 'default') {
    try {
      units = eurosToUnits(euros);
    } catch (err) {
      throw new OperatorError((err as Error).message);
    }
  }
  await store.workspaces.updateOne({ _id: workspaceId }, { $set: { document_price_units: units } });
  await recordAudit(store, operator, {
    action: 'credits.price_set',
    workspaceId,
    target: { type: 'workspace', id: workspaceId },
    details: { price: units === null ? 'default' : unitsToEuros(units) },
  });
}

export async function setSuspension(
  store: Store,
  operator: Actor,
  workspaceId: string,
  suspended: boolean,
  reason: string,
): Promise<void> {
  const workspace = await existingWorkspace(store, workspaceId);
  if (workspace.suspended === suspended)
    throw new OperatorError(`workspace ${workspaceId} is ${suspended ? 'suspended' : 'not suspended'} already`);
  if (!reason.trim()) throw new OperatorError('give a reason');
  // One field pair, one writer (the operator); no other code changes it.
  await store.workspaces.updateOne(
    { _id: workspaceId },
    { $set: { suspended, suspension_reason: suspended ? reason : null } },
  );
  await recordAudit(store, operator, {
    action: suspended ? 'workspace.suspended' : 'workspace.resumed',
    workspaceId,
    target: { type: 'workspace', id: workspaceId },
    details: { reason },
  });
}

export async function setAccountStatus(
  store: Store,
  operator: Actor,
  accountId: string,
  status: 'active' | 'disabled',
): Promise<void> {
  const account = await store.accounts.findById(accountId).lean();
  if (!account) throw new OperatorError(`no account ${accountId}`);
  if (account.status === status) throw new OperatorError(`account ${accountId} is ${status} already`);
  await changeAccount(
    store,
    operator,
    accountId,
    { status },
    status === 'disabled' ? 'account.disabled' : 'account.enabled',
  );
}

/** Support's request budget for one account (null: the environment's default); its keys' budget is the same, the account's twice it. */
export async function setAccountRateLimit(
  store: Store,
  operator: Actor,
  accountId: string,
  perMinute: number | null,
): Promise<void> {
  if (perMinute !== null && !(Number.isInteger(perMinute) && perMinute >= 1))
    throw new OperatorError('a rate limit is a whole number of requests per minute, at least 1 (or "default")');
  if (!(await store.accounts.exists({ _id: accountId }))) throw new OperatorError(`no account ${accountId}`);
  await changeAccount(store, operator, accountId, { rate_limit_per_minute: perMinute }, 'account.rate_limit_set', {
    rate_limit_per_minute: perMinute,
  });
}

/**
 * Changes what a request needs of an account: the account, then each of its
 * keys (which carry a copy), so the change holds from the next request on;
 * recorded in each of the account's workspaces (the trail is kept per workspace).
 */
async function changeAccount(
  store: Store,
  operator: Actor,
  accountId: string,
  change: { status?: 'active' | 'disabled'; rate_limit_per_minute?: number | null },
  action: 'account.disabled' | 'account.enabled' | 'account.rate_limit_set',
  details?: Record<string, unknown>,
): Promise<void> {
  await store.accounts.updateOne({ _id: accountId }, { $set: change });
  await refreshKeysOfAccount(store, accountId);
  const memberships = await store.memberships.find({ account_id: accountId }, { workspace_id: 1 }).lean();
  for (const { workspace_id: workspaceId } of memberships) {
    await recordAudit(store, operator, {
      action,
      workspaceId,
      target: { type: 'account', id: accountId },
      ...(details && { details }),
    });
  }
}
