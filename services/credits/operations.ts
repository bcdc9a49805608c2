import { isDuplicateKey } from '../../store/errors';
import type { Store } from '../../store';
import type { CreditLedgerRow } from '../../store/credits';

/**
 * The one way a workspace's credit balance changes. Without transactions,
 * the balance (on the workspace row) and the ledger (its own collection)
 * cannot change together, so an operation goes in two steps:
 *
 * 1. One conditional update of the workspace row adds the amount and marks
 *    the operation id in `credit_ops`; it applies only if the mark is absent
 *    (an operation applies once) and, for a charge, only if the balance
 *    covers it. Atomic on MongoDB and on our FerretDB build: of 50 concurrent
 *    charges against a balance for 20, exactly 20 apply.
 * 2. The ledger entry is written under the operation id (a repeat is a
 *    duplicate key, harmless), then the mark is removed.
 *
 * A crash between the steps leaves a mark: the balance already counts it,
 * and the next operation of the workspace (or `settleMarks`) writes the
 * missing entry. So the ledger plus the marks always equals the balance.
 */

export interface CreditOperation {
  /** `topup:<id>`, `reserve:<document id>` or `release:<document id>`. */
  id: string;
  kind: CreditLedgerRow['kind'];
  /** Signed, in ten-thousandths of a euro. */
  amountUnits: number;
  documentId?: string | null;
  actor?: string | null;
}

export type OperationResult =
  | { applied: true; balanceUnits: number }
  /** Applied before (a retry): nothing changed. */
  | { applied: false; repeated: true; balanceUnits: number }
  /** A charge the balance does not cover: nothing changed. */
  | { applied: false; repeated: false; balanceUnits: number };

interface Mark {
  kind: CreditLedgerRow['kind'];
  amount_units: number;
  document_id: string | null;
  actor: string | null;
  at: Date;
}

class UnknownWorkspaceError extends Error {
  override name = 'UnknownWorkspaceError';
}

export async function applyCreditOperation(
  store: Store,
  workspaceId: string,
  operation: CreditOperation,
): Promise<OperationResult> {
  const markPath = `credit_ops.${operation.id}`;
  const mark: Mark = {
    kind: operation.kind,
    amount_units: operation.amountUnits,
    document_id: operation.documentId ?? null,
    actor: operation.actor ?? null,
    at: new Date(),
  };
  const updated = await store.workspaces
    .findOneAndUpdate(
      {
        _id: workspaceId,
        deleted_at: null,
        [markPath]: { $exists: false },
        ...(operation.amountUnits < 0 && { credit_balance_units: { $gte: -operation.amountUnits } }),
      },
      { $inc: { credit_balance_units: operation.amountUnits }, $set: { [markPath]: mark } },
      { returnDocument: 'after' },
    )
    .lean();
  if (updated) {
    await settleMark(store, workspaceId, operation.id, mark);
    return { applied: true, balanceUnits: updated.credit_balance_units };
  }
  const workspace = await store.workspaces.findById(workspaceId).lean();
  if (!workspace || workspace.deleted_at) throw new UnknownWorkspaceError(`workspace ${workspaceId} does not exist`);
  const pending = (workspace.credit_ops as Record<string, Mark> | undefined)?.[operation.id];
  if (pending) {
    await settleMark(store, workspaceId, operation.id, pending);
    return { applied: false, repeated: true, balanceUnits: workspace.credit_balance_units };
  }
  const recorded = await store.creditLedger.exists({ _id: operation.id });
  return { applied: false, repeated: recorded !== null, balanceUnits: workspace.credit_balance_units };
}

/** Copies a marked operation into the ledger, then removes the mark. Safe to repeat. */
async function settleMark(store: Store, workspaceId: string, operationId: string, mark: Mark): Promise<void> {
  try {
    await store.creditLedger.create({
      _id: operationId,
      workspace_id: workspaceId,
      kind: mark.kind,
      amount_units: mark.amount_units,
      document_id: mark.document_id,
      actor: mark.actor,
      created_at: mark.at,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  await store.workspaces.updateOne({ _id: workspaceId }, { $unset: { [`credit_ops.${operationId}`]: 1 } });
}

/** Writes the ledger entries of operations left marked by a crash. */
export async function settleMarks(store: Store, workspaceId: string): Promise<void> {
  const workspace = await store.workspaces.findById(workspaceId).lean();
  for (const [operationId, mark] of Object.entries((workspace?.credit_ops as Record<string, Mark> | undefined) ?? {})) {
    await settleMark(store, workspaceId, operationId, mark);
  }
}

/** The balance as the ledger tells it, and as the workspace row holds it: equal once no mark is pending. */
export async function ledgerTotals(
  store: Store,
  workspaceId: string,
): Promise<{ ledgerUnits: number; balanceUnits: number; entries: number }> {
  const [entries, workspace] = await Promise.all([
    store.creditLedger.find({ workspace_id: workspaceId }, { amount_units: 1 }).sort({ _id: 1 }).lean(),
    store.workspaces.findById(workspaceId).lean(),
  ]);
  if (!workspace) throw new UnknownWorkspaceError(`workspace ${workspaceId} does not exist`);
  return {
    ledgerUnits: entries.reduce((sum, entry) => sum + entry.amount_units, 0),
    balanceUnits: workspace.credit_balance_units,
    entries: entries.length,
  };
}
