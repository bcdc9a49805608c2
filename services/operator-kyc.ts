import type { Client } from '@temporalio/client';

import type { Store } from '../store';
import { KYC_REVIEW_SIGNAL, kycWorkflowId, type KycDecision } from '../workflows/shared';
import { latestSubmission, type KycSubmission } from './kyc';
import { existingWorkspace, OperatorError } from './operator';

/**
 * The operator's side of KYC review, as the ops CLI offers it: list and
 * show submissions, and decide one by sending the review workflow its
 * signal, through the Temporal client, exactly as the Web UI does. The
 * workflow records the outcome (and its audit event) itself.
 */

const STATUSES = ['pending', 'approved', 'rejected'] as const;
type ReviewStatus = (typeof STATUSES)[number];
/** How long the CLI waits to see the workflow record a decision. */
const DECISION_WAIT_MS = 15_000;

export async function listSubmissions(store: Store, status?: string): Promise<KycSubmission[]> {
  const isStatus = (value: string): value is ReviewStatus => (STATUSES as readonly string[]).includes(value);
  if (status !== undefined && !isStatus(status)) throw new OperatorError(`unknown status ${status}; use ${STATUSES.join(', ')}`);
  const statuses: readonly ReviewStatus[] = status ? [status] : STATUSES;
  const lists = await Promise.all(statuses.map((one) => store.kycSubmissions.find({ status: one }).sort({ submitted_at: 1 }).limit(500).lean()));
  return lists.flat();
}

async function pendingSubmission(store: Store, workspaceId: string): Promise<KycSubmission> {
  await existingWorkspace(store, workspaceId);
  const submission = await latestSubmission(store, workspaceId);
  if (submission?.status !== 'pending') throw new OperatorError(`workspace ${workspaceId} has no pending KYC review (status ${submission?.status ?? 'none'})`);
  return submission;
}

/** Signals the decision and waits until the workflow has recorded it; answers the submission as recorded. */
export async function decide(store: Store, temporal: Client, workspaceId: string, decision: KycDecision): Promise<KycSubmission> {
  const submission = await pendingSubmission(store, workspaceId);
  await temporal.workflow.getHandle(kycWorkflowId(workspaceId)).signal(KYC_REVIEW_SIGNAL, decision);
  const deadline = Date.now() + DECISION_WAIT_MS;
  for (;;) {
    const current = await latestSubmission(store, workspaceId);
    if (current && current.number === submission.number && current.status !== 'pending') return current;
    if (Date.now() > deadline) throw new OperatorError(`signalled ${kycWorkflowId(workspaceId)}, but the decision is not recorded yet; check the workflow in the Temporal Web UI`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
