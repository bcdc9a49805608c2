import {
  condition,
  defineQuery,
  defineSignal,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';

import type { Activities } from '../activities';
import type { ReviewStatus } from '../domain/kyc/verification';
import { isReviewDecision } from './review-decision';
import {
  KYC_REVIEW_REMINDER_EVERY,
  KYC_REVIEW_SIGNAL,
  KYC_STATE_QUERY,
  PROVISION_RETRY,
  SEARCH_ATTRIBUTES,
  type KycDecision,
  type KycReviewInput,
} from './shared';
import { movesToNewBuilds } from './versioning';

/**
 * The review of one KYC submission (id `kyc-<workspace id>`), as the spec's
 * state table has it:
 *
 *   pending ──every day without a decision──▶ the operators reminded (OPERATOR_EMAIL), still pending
 *      │
 *   pending ──signal review {decision: "approve"}──▶ approved ──▶ onboard the workspace,
 *      │                                                           provision every company
 *      └────signal review {decision: "reject", reason}──▶ rejected (uploads reopen; a
 *                                                          resubmission starts a new run)
 *
 * The workflow is the one writer of the outcome (through recordKycReview).
 * Each company is provisioned by its own activity, retried until the
 * provider takes it, side by side: one the provider refuses holds back no
 * other, and keeps this run open (and its pending activity visible) until it
 * is taken. Operators find open reviews in the Web UI with `KycStatus = "pending"`.
 */

const reviewSignal = defineSignal<[KycDecision]>(KYC_REVIEW_SIGNAL);

export interface KycReviewState {
  workspaceId: string;
  submission: number;
  status: ReviewStatus;
  rejectReason: string | null;
  /** After approval: companies with a tenant, and those the provider has not taken yet. */
  provisioned: string[];
  provisioning: string[];
}

const stateQuery = defineQuery<KycReviewState>(KYC_STATE_QUERY);

const { recordKycReview, onboardKycWorkspace, companiesToProvision } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
const { provisionCompany } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: PROVISION_RETRY });
// A reminder the mail server cannot take now is dropped after a few tries: the next one comes a day later.
const { remindKycReviewers } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * Waits for the decision, reminding the operators every KYC_REVIEW_REMINDER_EVERY it has not come. Reviews that
 * were waiting when reminders came in move to this code (the workflow follows new builds) and keep waiting
 * without them: the patch marks the runs that remind.
 */
async function decisionWithReminders(workspaceId: string, submission: number, decided: () => boolean): Promise<void> {
  if (!patched('kyc-review-reminders')) return condition(decided);
  for (let days = 1; !(await condition(decided, KYC_REVIEW_REMINDER_EVERY)); days += 1) {
    await remindKycReviewers(workspaceId, submission, days).catch((err: unknown) =>
      log.warn('the reminder was not sent', { err }),
    );
  }
}

export async function kycReviewWorkflow({ workspaceId, submission }: KycReviewInput): Promise<KycReviewState> {
  const state: KycReviewState = {
    workspaceId,
    submission,
    status: 'pending',
    rejectReason: null,
    provisioned: [],
    provisioning: [],
  };
  let decision: KycDecision | undefined;
  setHandler(stateQuery, () => state, { description: 'The review: status, reject reason, provisioning progress' });
  setHandler(
    reviewSignal,
    (input) => {
      // A signal cannot be refused to its sender; one that decides nothing is logged and dropped.
      if (decision) log.warn('the review is decided already; signal ignored', { input });
      else if (!isReviewDecision(input))
        log.warn('signal ignored: expected {"decision": "approve" | "reject", "reason"?: string}', { input });
      else {
        const { reason, operator } = input;
        decision = {
          decision: input.decision,
          ...(typeof reason === 'string' && { reason }),
          ...(typeof operator === 'string' && { operator }),
        };
      }
    },
    {
      description:
        'The decision: {"decision": "approve"} or {"decision": "reject", "reason": "what to fix"}; "operator" names who decided',
    },
  );

  setCurrentDetails(
    `Waiting for a review: signal \`${KYC_REVIEW_SIGNAL}\` with {"decision": "approve"} or {"decision": "reject", "reason": "…"}`,
  );
  await decisionWithReminders(workspaceId, submission, () => decision !== undefined);
  const outcome = await recordKycReview(workspaceId, submission, decision!);
  state.status = outcome.status;
  state.rejectReason = outcome.rejectReason;
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.kycStatus, value: outcome.status }]);
  if (outcome.status === 'rejected') {
    setCurrentDetails(`Rejected: ${outcome.rejectReason}`);
    return state;
  }

  setCurrentDetails('Approved; onboarding the workspace with the live provider');
  await onboardKycWorkspace(workspaceId);
  state.provisioning = await companiesToProvision(workspaceId);
  const progress = () =>
    setCurrentDetails(
      `Approved; ${state.provisioned.length} companies live, ${state.provisioning.length} being provisioned (${state.provisioning.join(', ') || 'none'})`,
    );
  progress();
  await Promise.all(
    [...state.provisioning].map(async (companyId) => {
      if ((await provisionCompany(companyId)) === 'live') state.provisioned.push(companyId);
      state.provisioning = state.provisioning.filter((id) => id !== companyId);
      progress();
    }),
  );
  return state;
}

movesToNewBuilds(kycReviewWorkflow);
