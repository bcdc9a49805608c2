import type { Store } from '../../store';
import { RuleError } from '../errors';

/**
 * Whether a workspace may send on the live network: verified (KYC approved,
 * which makes its mode `live`) and not suspended by the operator. Credits
 * are checked when each document is charged, at the price answered here
 * (the workspace's own, else `defaultPriceUnits`), read in the same visit.
 */
export async function requireLiveSending(
  store: Store,
  workspaceId: string,
  defaultPriceUnits: number,
): Promise<{ priceUnits: number }> {
  const workspace = await store.workspaces
    .findById(workspaceId, { mode: 1, suspended: 1, suspension_reason: 1, document_price_units: 1 })
    .lean();
  if (workspace?.mode !== 'live') {
    throw new RuleError(
      'workspace_not_verified',
      'This workspace is not verified for live sending yet. Upload the KYC documents (POST /v1/kyc/documents) and submit them (POST /v1/kyc/submit); once the review approves them, live keys send. Until then, use the sandbox host.',
    );
  }
  if (workspace.suspended) {
    throw new RuleError(
      'workspace_suspended',
      `This workspace is suspended from live sending${workspace.suspension_reason ? `: ${workspace.suspension_reason}` : ''}. Contact support; the sandbox still works.`,
    );
  }
  return { priceUnits: workspace.document_price_units ?? defaultPriceUnits };
}
