import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { createTransport } from 'nodemailer';

import type { ReviewStatus } from '../../domain/kyc/verification';
import type { Logger } from '../../platform/logger';
import { startWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import { kycSubmissionId } from '../../store/kyc-submissions';
import { KYC_REVIEW_SIGNAL, kycWorkflowId, SEARCH_ATTRIBUTES, type KycDecision } from '../../workflows/shared';
import { recordAudit, type Actor } from '../audit';
import { recordVerifiedAtApproval } from '../receiving/participant-review';
import type { KycSubmission } from './state';

/**
 * The review of a submission is a workflow, `kyc-<workspace id>`, that waits
 * for the operator's signal and is the one writer of the outcome. A
 * resubmission after a rejection starts a new run under the same id, which
 * Temporal allows only once the previous run has closed.
 */

/** Who the audit trail names for a decision: the operator the signal names (the ops CLI does), else the review itself. */
const reviewer = (operator: string | undefined): Actor => ({
  accountId: operator?.trim().slice(0, 100) || 'operator:kyc-review',
  keyPrefix: null,
});

/** Quoted by the customer and the operator alike: the workflow id and the submission. */
export const reviewReference = (workspaceId: string, submission: number) =>
  `${kycWorkflowId(workspaceId)}#${submission}`;

/** The previous run may still be closing right after it recorded a rejection: ask again this often. */
const START_ATTEMPTS = 10;

const summaryOf = (submission: KycSubmission) =>
  `KYC review: ${submission.legal_name} (${submission.enterprise_number}), workspace ${submission.workspace_id}, submission ${submission.number}`;

const detailsOf = (submission: KycSubmission) =>
  [
    `Own company: ${submission.company_id}; ${submission.document_ids.length} documents; attested by ${submission.attestation_name} (${submission.attestation_role}), version ${submission.attestation_version}.`,
    `Decide with signal \`${KYC_REVIEW_SIGNAL}\`: \`{"decision": "approve"}\` or \`{"decision": "reject", "reason": "…"}\`.`,
  ].join('\n\n');

/** Starts the review of a submission; starting it again (the reconciler, a retry) is harmless. */
export async function startKycReview(temporal: Client, submission: KycSubmission): Promise<void> {
  const workflowId = kycWorkflowId(submission.workspace_id);
  for (let attempt = 1; ; attempt += 1) {
    const started = await startWorkflow(temporal, 'kycReviewWorkflow', {
      workflowId,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
      input: { workspaceId: submission.workspace_id, submission: submission.number },
      memo: { submission: submission.number },
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.workspaceId, value: submission.workspace_id },
        { key: SEARCH_ATTRIBUTES.companyId, value: submission.company_id },
        { key: SEARCH_ATTRIBUTES.kycStatus, value: submission.status },
      ],
      staticSummary: summaryOf(submission),
      staticDetails: detailsOf(submission),
    });
    if (started) return;
    const running = await temporal.workflow.getHandle(workflowId).describe();
    if (running.memo?.submission === submission.number) return;
    if (attempt === START_ATTEMPTS)
      throw new Error(`the review of an earlier submission of ${submission.workspace_id} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}

/**
 * Reminds the operators of a review still waiting for its decision, with what they need to decide it. Sent by the
 * review workflow every KYC_REVIEW_REMINDER_EVERY while it waits.
 */
export async function remindReviewers(
  deps: { store: Store; smtpUrl: string; mailFrom: string; operatorEmail: string },
  workspaceId: string,
  number: number,
  daysWaiting: number,
): Promise<void> {
  const submission = await deps.store.kycSubmissions
    .findById(kycSubmissionId(workspaceId, number))
    .lean<KycSubmission>();
  if (submission?.status !== 'pending') return;
  const reference = reviewReference(workspaceId, number);
  await createTransport(deps.smtpUrl).sendMail({
    from: deps.mailFrom,
    to: deps.operatorEmail,
    subject: `KYC review waiting ${daysWaiting} ${daysWaiting === 1 ? 'day' : 'days'}: ${submission.legal_name} (${reference})`,
    text: [
      `${summaryOf(submission)} has waited for a decision for ${daysWaiting} ${daysWaiting === 1 ? 'day' : 'days'}.`,
      '',
      detailsOf(submission),
      '',
      `With the ops CLI: npm run --silent ops -- kyc show ${workspaceId}, then kyc approve ${workspaceId} or kyc reject ${workspaceId} "what to fix"; or signal the workflow in the Web UI.`,
    ].join('\n'),
  });
}

const DEFAULT_REJECT_REASON = 'The review did not accept the submission; contact support for the details.';
const MAX_REASON_LENGTH = 1000;

/**
 * Records the operator's decision on a pending submission (one conditional
 * update: it lands once) and, on approval, records what it verified of each
 * company (its identity when the decision was made: what proves its Peppol
 * id, services/receiving/participant-review.ts) and puts the workspace in
 * `live` mode. Repeating it (a retried activity) changes nothing more; the audit
 * event is written by the call that made the change.
 */
export async function recordReviewOutcome(
  store: Store,
  workspaceId: string,
  number: number,
  { decision, reason, operator }: KycDecision,
): Promise<KycSubmission> {
  const status: ReviewStatus = decision === 'approve' ? 'approved' : 'rejected';
  const rejectReason =
    status === 'rejected' ? reason?.trim().slice(0, MAX_REASON_LENGTH) || DEFAULT_REJECT_REASON : null;
  const id = kycSubmissionId(workspaceId, number);
  const decided = await store.kycSubmissions
    .findOneAndUpdate(
      { _id: id, status: 'pending' },
      { $set: { status, reviewed_at: new Date(), reject_reason: rejectReason } },
      { returnDocument: 'after' },
    )
    .lean<KycSubmission>();
  const submission = decided ?? (await store.kycSubmissions.findById(id).lean<KycSubmission>());
  if (!submission) throw new Error(`no KYC submission ${id}`);
  // Also on a repeat: a crash between the writes is repaired by the retry.
  if (submission.status === 'approved') {
    await recordVerifiedAtApproval(
      store,
      workspaceId,
      submission.reviewed_at ?? new Date(),
      submission.company_identities ?? undefined,
    );
    await store.workspaces.updateOne({ _id: workspaceId }, { $set: { mode: 'live' } });
  }
  if (decided) {
    await recordAudit(store, reviewer(operator), {
      action: status === 'approved' ? 'kyc.approved' : 'kyc.rejected',
      workspaceId,
      target: { type: 'kyc_submission', id: reviewReference(workspaceId, number) },
      details: { submission: number, ...(rejectReason !== null && { reason: rejectReason }) },
    });
  }
  return submission;
}

/** A submission younger than this may still be on its way to its workflow through the API. */
const START_GRACE_MS = 30_000;

/**
 * The reconciler's pass: every pending submission has a running review,
 * also when the API stored it and then could not reach Temporal.
 */
export async function reconcileKycReviews(
  store: Store,
  temporal: Client,
  logger: Logger,
  now = Date.now(),
): Promise<number> {
  const pending = await store.kycSubmissions
    .find({ status: 'pending', submitted_at: { $lt: new Date(now - START_GRACE_MS) } })
    .sort({ submitted_at: 1 })
    .limit(200)
    .lean<KycSubmission[]>();
  for (const submission of pending) {
    try {
      await startKycReview(temporal, submission);
    } catch (err) {
      logger.error({ err, workspaceId: submission.workspace_id }, 'could not start a KYC review');
    }
  }
  return pending.length;
}
