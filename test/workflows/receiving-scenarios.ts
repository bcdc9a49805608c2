import { ApplicationFailure } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';

import type { ReceivingPlan } from '../../services/receiving/registration';
import type { syncReceivingWorkflow } from '../../workflows/sync-receiving';
import { REGISTRATION_REFUSED, SEARCH_ATTRIBUTES, type KycDecision } from '../../workflows/shared';
import { runOnOwnWorker } from './own-worker';

/**
 * The receiving workflow (a company's registration as a Peppol receiver, and
 * the operator's review of a participant id no proof covers, and the
 * company's Peppol Directory listing) with its activities stubbed, on a real Temporal server: each scenario is the plans
 * the workflow reads in turn and the decision the operator signals once the
 * review is open. The recorder keeps the histories for the replay test.
 */

const identity = {
  peppol_id: '0208:0987654394',
  name: 'Example Consulting SRL',
  company_registration_id: '0123456749',
  tax_id: 'BE0123456749',
};
const review = { identity, why: "0208:0987654394 is not the company's verified registration id or VAT number" };
const nothing: ReceivingPlan = {
  desired: null,
  register: null,
  unregister: [],
  review: null,
  refused: null,
  listings: [],
  prepareMigration: null,
};

export interface ReceivingScenario {
  name: string;
  /** The plans read in turn (the last one again for any further read). */
  plans: ReceivingPlan[];
  /** Signalled once the review is open. */
  decision?: KycDecision;
  /** The Directory refuses the business card. */
  directoryRefuses?: boolean;
  /** The SML refuses the migration key. */
  smlRefusesKey?: boolean;
}

export const RECEIVING_SCENARIOS: ReceivingScenario[] = [
  {
    name: 'registered-and-listed',
    plans: [
      { ...nothing, desired: identity.peppol_id, register: identity.peppol_id, listings: [identity.peppol_id] },
      { ...nothing, desired: identity.peppol_id },
    ],
  },
  {
    name: 'listing-refused',
    plans: [{ ...nothing, desired: identity.peppol_id, listings: [identity.peppol_id] }],
    directoryRefuses: true,
  },
  {
    name: 'unregistered-listing-dropped-first',
    plans: [{ ...nothing, unregister: ['0208:0123456749'], listings: ['0208:0123456749'] }],
  },
  {
    name: 'migration-key-prepared',
    plans: [
      { ...nothing, desired: identity.peppol_id, prepareMigration: identity.peppol_id },
      { ...nothing, desired: identity.peppol_id },
    ],
  },
  {
    name: 'migration-key-refused',
    plans: [{ ...nothing, desired: identity.peppol_id, prepareMigration: identity.peppol_id }],
    smlRefusesKey: true,
  },
  {
    name: 'review-approved-then-registered',
    plans: [
      { ...nothing, unregister: ['0208:0123456749'], review },
      { ...nothing, desired: identity.peppol_id, register: identity.peppol_id },
      { ...nothing, desired: identity.peppol_id },
    ],
    decision: { decision: 'approve', operator: 'operator:alice' },
  },
  {
    name: 'review-rejected',
    plans: [
      { ...nothing, review },
      { ...nothing, refused: { participant: identity.peppol_id, reason: 'not theirs' } },
    ],
    decision: { decision: 'reject', reason: 'not theirs', operator: 'operator:alice' },
  },
];

export async function runReceivingScenario(temporalAddress: string, scenario: ReceivingScenario) {
  const calls: string[] = [];
  let reads = 0;
  let handle: WorkflowHandle<typeof syncReceivingWorkflow> | undefined;
  const activities = {
    planReceiving: () => Promise.resolve(scenario.plans[Math.min(reads++, scenario.plans.length - 1)]),
    registerReceiver: (_companyId: string, participant: string) =>
      Promise.resolve(void calls.push(`registerReceiver ${participant}`)),
    unregisterReceiver: (_companyId: string, participant: string) =>
      Promise.resolve(void calls.push(`unregisterReceiver ${participant}`)),
    recordReceivingOutcome: (_companyId: string, outcome: { status: string; participant: string | null }) =>
      Promise.resolve(void calls.push(`recordReceivingOutcome ${outcome.status} ${outcome.participant ?? ''}`.trim())),
    openParticipantReview: () => {
      calls.push('openParticipantReview');
      // The operator answers once the review shows as open.
      if (scenario.decision) setTimeout(() => void handle?.signal('review', scenario.decision), 200);
      return Promise.resolve(true);
    },
    syncBusinessCard: (_companyId: string, participant: string) => {
      calls.push(`syncBusinessCard ${participant}`);
      if (scenario.directoryRefuses)
        throw ApplicationFailure.nonRetryable('the Peppol Directory answered HTTP 403', REGISTRATION_REFUSED);
      return Promise.resolve('published');
    },
    recordBusinessCardFailure: (_companyId: string, participant: string, reason: string) =>
      Promise.resolve(void calls.push(`recordBusinessCardFailure ${participant}: ${reason}`)),
    prepareMigration: () => {
      calls.push('prepareMigration');
      if (scenario.smlRefusesKey)
        throw ApplicationFailure.nonRetryable('the SML refused: NotFoundFault', REGISTRATION_REFUSED);
      return Promise.resolve('prepared');
    },
    recordMigrationFailure: (_companyId: string, reason: string) =>
      Promise.resolve(void calls.push(`recordMigrationFailure: ${reason}`)),
    recordParticipantDecision: (_companyId: string, _identity: unknown, decision: KycDecision) => {
      calls.push(`recordParticipantDecision ${decision.decision}`);
      return Promise.resolve(decision.decision === 'approve' ? 'approved' : 'rejected');
    },
  };
  return runOnOwnWorker(
    temporalAddress,
    `receiving-test-${scenario.name}`,
    activities,
    async (client, run) => {
      handle = await client.workflow.start<typeof syncReceivingWorkflow>('syncReceivingWorkflow', {
        ...run,
        args: [{ companyId: 'com_test' }],
      });
      return handle;
    },
    async (finished, result) => ({
      result,
      calls,
      statusAttribute: (await finished.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.kycStatus),
      workflowId: finished.workflowId,
    }),
  );
}
