import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import {
  condition,
  defineSignal,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';

import type { Activities } from '../activities';
import { isReviewDecision } from './review-decision';
import {
  KYC_REVIEW_SIGNAL,
  RECEIVING_CHANGED_SIGNAL,
  REGISTRATION_RETRY,
  SEARCH_ATTRIBUTES,
  type KycDecision,
  type SyncReceivingInput,
} from './shared';
import { movesToNewBuilds } from './versioning';

const {
  planReceiving,
  recordReceivingOutcome,
  openParticipantReview,
  recordParticipantDecision,
  recordBusinessCardFailure,
  recordMigrationFailure,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
const { registerReceiver, unregisterReceiver, syncBusinessCard, prepareMigration } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: REGISTRATION_RETRY,
});

const receivingChanged = defineSignal(RECEIVING_CHANGED_SIGNAL);
const participantReviewSignal = defineSignal<[KycDecision]>(KYC_REVIEW_SIGNAL);

const reasonOf = (err: unknown): string => {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
};

/** A step beside the registration: its failure is said on the company, and receiving goes on. */
async function besideRegistration(
  details: string,
  step: () => Promise<unknown>,
  failed: (reason: string) => Promise<void>,
): Promise<void> {
  setCurrentDetails(details);
  try {
    await step();
  } catch (err) {
    await failed(reasonOf(err));
  }
}

type Plan = Awaited<ReturnType<Activities['planReceiving']>>;

/** The participant's Peppol Directory listing, when the plan says it is not in line. */
async function syncListing(companyId: string, participant: string, plan: Plan): Promise<void> {
  if (!plan.listings.includes(participant)) return;
  await besideRegistration(
    `Bringing the Peppol Directory's business card of ${participant} in line`,
    () => syncBusinessCard(companyId, participant),
    (reason) => recordBusinessCardFailure(companyId, participant, reason),
  );
}

/** The migration key the company asked for, to the SML, when one waits. */
async function prepareMigrationKey(companyId: string, plan: Plan): Promise<void> {
  if (!plan.prepareMigration) return;
  await besideRegistration(
    `Giving the SML the migration key of ${plan.prepareMigration} (PrepareToMigrate)`,
    () => prepareMigration(companyId),
    (reason) => recordMigrationFailure(companyId, reason),
  );
}

/**
 * A company's registration as a Peppol receiver (id `receiving-<company id>`),
 * brought in line with the company: registered in our SMP and the SML while
 * it is live, not deleted, its workspace not suspended and it has a Peppol id
 * proven to be its own (domain/kyc/participant-proof.ts); unregistered otherwise.
 * Started (or signalled, when it runs) whenever one of those changes; it plans
 * again after every pass until nothing is left to do.
 *
 *   plan ──unregister each participant it should no longer have (its Directory listing dropped first)──▶
 *        ──register the one it should have (with the migration key it brought: taken over from its previous SMP)──▶
 *              its business card to the Peppol Directory, or dropped there (opted out)──▶
 *              the migration key it asked for (to leave) to the SML──▶ registered | unregistered
 *              (a Directory or migration key failure is said on the company only)
 *        ──an identity no proof covers──▶ awaiting_review (KycStatus "pending"):
 *              signal `review` {"decision": "approve"} ──▶ verified ──▶ plan again (registers it)
 *              signal `review` {"decision": "reject", "reason"} ──▶ failed, saying why
 *              the company changes meanwhile ──▶ plan again (the decision was about something else)
 *   a step that keeps failing (about half an hour of backoff) or is refused ──▶ failed, saying why
 */
export async function syncReceivingWorkflow({ companyId }: SyncReceivingInput): Promise<Outcome> {
  const signalled = listenForSignals();
  const record = outcomeRecorder(companyId);
  let outcome: Outcome = 'unregistered';
  while (signalled.changed) {
    signalled.changed = false;
    const plan: Plan = await planReceiving(companyId);
    outcome = await applyPlan(companyId, plan, record);
    if (plan.refused && !plan.desired) outcome = await sayRefused(plan.refused, record);
    if (plan.review) {
      outcome = (await awaitReview(companyId, plan.review, !plan.desired, signalled, record)) ?? outcome;
      // Approved, refused, or the company changed: the next plan registers it, says the refusal, or reviews anew.
      signalled.changed = true;
      continue;
    }
    // A change signalled while the last step ran is planned for before the workflow ends.
    await condition(() => signalled.changed, 1);
  }
  setCurrentDetails(`Done: ${outcome}`);
  return outcome;
}

type Outcome = 'registered' | 'unregistered' | 'awaiting_review' | 'failed';

/** What the signals said since the workflow last looked: a change of the company, an operator's decision. */
interface Signalled {
  changed: boolean;
  /** A review is shown as pending: a decision signalled from now on is taken. */
  reviewOpen: boolean;
  decision?: KycDecision;
}

function listenForSignals(): Signalled {
  const signalled: Signalled = { changed: true, reviewOpen: false };
  setHandler(receivingChanged, () => {
    signalled.changed = true;
  });
  setHandler(
    participantReviewSignal,
    (input) => {
      // A signal cannot be refused to its sender; one that decides nothing is logged and dropped.
      if (!signalled.reviewOpen) log.warn('no review is open; signal ignored', { input });
      else if (!isReviewDecision(input))
        log.warn('signal ignored: expected {"decision": "approve" | "reject", "reason"?: string}', { input });
      else signalled.decision = input;
    },
    {
      description:
        'The decision on the company’s Peppol id under review: {"decision": "approve"} or {"decision": "reject", "reason": "…"}; "operator" names who decided',
    },
  );
  return signalled;
}

type ReceivingOutcome = Parameters<Activities['recordReceivingOutcome']>[1];
type RecordOutcome = (outcome: ReceivingOutcome) => Promise<unknown>;

/** Records each outcome on the company with the next step number, so a retried record is the same row. */
function outcomeRecorder(companyId: string): RecordOutcome {
  let step = 0;
  return (outcome) => recordReceivingOutcome(companyId, outcome, step++);
}

/** Unregisters what the plan drops and registers what it wants, the listing and migration key beside; a failure is said. */
async function applyPlan(companyId: string, plan: Plan, record: RecordOutcome): Promise<Outcome> {
  let participant: string | null = plan.register;
  try {
    for (const old of plan.unregister) {
      participant = old;
      await syncListing(companyId, old, plan);
      setCurrentDetails(`Unregistering ${old} from the SML and our SMP`);
      await unregisterReceiver(companyId, old);
      await record({ status: 'unregistered', participant: old });
    }
    participant = plan.register;
    if (plan.register) {
      setCurrentDetails(`Registering ${plan.register} in our SMP and the SML`);
      await registerReceiver(companyId, plan.register);
      await record({ status: 'registered', participant: plan.register });
    }
    if (plan.desired) await syncListing(companyId, plan.desired, plan);
    await prepareMigrationKey(companyId, plan);
    return plan.desired ? 'registered' : 'unregistered';
  } catch (err) {
    const reason = reasonOf(err);
    await record({ status: 'failed', participant, error_message: reason });
    setCurrentDetails(`Failed: ${reason}`);
    return 'failed';
  }
}

/** The review refused the participant, and the company wants no other: said as the failure it is. */
async function sayRefused(
  { participant, reason }: NonNullable<Plan['refused']>,
  record: RecordOutcome,
): Promise<Outcome> {
  const refusal = `The review refused ${participant}: ${reason}`;
  await record({ status: 'failed', participant, error_message: refusal });
  setCurrentDetails(refusal);
  return 'failed';
}

/**
 * Opens the review of an identity no proof covers and waits for an operator's decision, or a change of the company
 * (which wins: the decision was about an identity the company no longer has). `awaiting_review` when the company
 * waits for it to receive at all.
 */
async function awaitReview(
  companyId: string,
  { identity, why }: NonNullable<Plan['review']>,
  waitsToReceive: boolean,
  signalled: Signalled,
  record: RecordOutcome,
): Promise<'awaiting_review' | undefined> {
  signalled.reviewOpen = true;
  const opened = await openParticipantReview(companyId, identity, why);
  if (opened) {
    if (waitsToReceive) {
      const waiting = `An operator reviews ${identity.peppol_id} before it is registered: ${why}`;
      await record({ status: 'awaiting_review', participant: identity.peppol_id, error_message: waiting });
    }
    upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.kycStatus, value: 'pending' }]);
    setCurrentDetails(
      `Waiting for a review of ${identity.peppol_id} (registration id ${identity.company_registration_id ?? 'none'}, VAT number ${identity.tax_id ?? 'none'}): ${why}. ` +
        `Signal \`${KYC_REVIEW_SIGNAL}\` with {"decision": "approve"} or {"decision": "reject", "reason": "…"}`,
    );
    await condition(() => signalled.decision !== undefined || signalled.changed);
    const given = signalled.decision;
    signalled.decision = undefined;
    const decided = given && !signalled.changed ? await recordParticipantDecision(companyId, identity, given) : 'stale';
    if (decided !== 'stale') upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.kycStatus, value: decided }]);
  }
  signalled.reviewOpen = false;
  return opened && waitsToReceive ? 'awaiting_review' : undefined;
}

movesToNewBuilds(syncReceivingWorkflow);
