import type { Client } from '@temporalio/client';

import type { Store } from '../../store';
import { KYC_REVIEW_SIGNAL, kycWorkflowId, receivingWorkflowId, type KycDecision } from '../../workflows/shared';
import { latestSubmission, type KycSubmission } from './state';
import { existingWorkspace, OperatorError } from '../operator/workspaces';

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
  if (status !== undefined && !isStatus(status))
    throw new OperatorError(`unknown status ${status}; use ${STATUSES.join(', ')}`);
  const statuses: readonly ReviewStatus[] = status ? [status] : STATUSES;
  const lists = await Promise.all(
    statuses.map((one) =>
      store.kycSubmissions.find({ status: one }).sort({ submitted_at: 1 }).limit(500).lean<KycSubmission[]>(),
    ),
  );
  return lists.flat();
}

async function pendingSubmission(store: Store, workspaceId: string): Promise<KycSubmission> {
  await existingWorkspace(store, workspaceId);
  const submission = await latestSubmission(store, workspaceId);
  if (submission?.status !== 'pending')
    throw new OperatorError(
      `workspace ${workspaceId} has no pending KYC review (status ${submission?.status ?? 'none'})`,
    );
  return submission;
}

/** Signals a review workflow the decision and waits until it has recorded it (`recorded` answers it, or undefined while it has not). */
async function signalDecision<T>(
  temporal: Client,
  workflowId: string,
  decision: KycDecision,
  recorded: () => Promise<T | undefined>,
): Promise<T> {
  await temporal.workflow.getHandle(workflowId).signal(KYC_REVIEW_SIGNAL, decision);
  const deadline = Date.now() + DECISION_WAIT_MS;
  for (;;) {
    const outcome = await recorded();
    if (outcome !== undefined) return outcome;
    if (Date.now() > deadline)
      throw new OperatorError(
        `signalled ${workflowId}, but the decision is not recorded yet; check the workflow in the Temporal Web UI`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signals the decision and waits until the workflow has recorded it; answers the submission as recorded. */
export async function decide(
  store: Store,
  temporal: Client,
  workspaceId: string,
  decision: KycDecision,
): Promise<KycSubmission> {
  const submission = await pendingSubmission(store, workspaceId);
  return signalDecision(temporal, kycWorkflowId(workspaceId), decision, async () => {
    const current = await latestSubmission(store, workspaceId);
    return current && current.number === submission.number && current.status !== 'pending' ? current : undefined;
  });
}

/**
 * Decides the pending review of a live company's Peppol id (a KYC re-verification, services/receiving/participant-review.ts)
 * by signalling its receiving workflow, and waits until the workflow has recorded it. A change of the company in between
 * makes the decision stale: the review stays pending, now about the new identity, and this says so.
 */
export async function decideParticipant(
  store: Store,
  temporal: Client,
  companyId: string,
  decision: KycDecision,
): Promise<{ status: string; peppol_id: string | null }> {
  const company = await store.companies.findById(companyId, { participant_review: 1, deleted_at: 1 }).lean();
  if (!company || company.deleted_at) throw new OperatorError(`no company ${companyId}`);
  const review = company.participant_review;
  if (review?.status !== 'pending')
    throw new OperatorError(
      `company ${companyId} has no pending participant review (status ${review?.status ?? 'none'})`,
    );
  return signalDecision(temporal, receivingWorkflowId(companyId), decision, async () => {
    const current = (await store.companies.findById(companyId, { participant_review: 1 }).lean())?.participant_review;
    if (!current) return undefined;
    if (current.requested_at.getTime() !== review.requested_at.getTime()) {
      throw new OperatorError(
        `company ${companyId} changed while it was reviewed; its review is now about ${current.identity.peppol_id ?? 'no Peppol id'}: look again`,
      );
    }
    return current.status === 'pending'
      ? undefined
      : { status: current.status, peppol_id: current.identity.peppol_id ?? null };
  });
}
