import type { kycReviewWorkflow } from '../../workflows/kyc-review';
import { SEARCH_ATTRIBUTES, type KycDecision } from '../../workflows/shared';
import { runOnOwnWorker } from './own-worker';

/**
 * The KYC review workflow on a real Temporal server with its activities
 * stubbed: each scenario is the signals an operator sends and how often the
 * provider refuses each company. The workflow tests assert on runs; the
 * recorder keeps their histories for the replay test.
 */

export interface KycScenario {
  name: string;
  /** Sent before the worker runs, so the run sees them all, in order, whatever it decides. */
  signals: unknown[];
  /** How many provisioning attempts of each company fail first. */
  provisionFailures?: Record<string, number>;
}

export const KYC_SCENARIOS: KycScenario[] = [
  { name: 'approved-one-company-retried', signals: [{ decision: 'approve' }], provisionFailures: { com_b: 2 } },
  {
    name: 'rejected-after-signals-that-decide-nothing',
    signals: [
      { decision: 'maybe' },
      { reason: 'no decision' },
      { decision: 'reject', reason: 'Blurred ID' },
      { decision: 'approve' },
    ],
  },
];

export async function runKycScenario(temporalAddress: string, { name, signals, provisionFailures = {} }: KycScenario) {
  const calls: string[] = [];
  const failuresLeft = { ...provisionFailures };
  const activities = {
    recordKycReview: (workspaceId: string, submission: number, { decision, reason }: KycDecision) => {
      calls.push(`recordKycReview ${workspaceId} #${submission} ${decision}`);
      return Promise.resolve(
        decision === 'approve'
          ? { status: 'approved', rejectReason: null }
          : { status: 'rejected', rejectReason: reason ?? 'none given' },
      );
    },
    onboardKycWorkspace: (workspaceId: string) =>
      Promise.resolve(void calls.push(`onboardKycWorkspace ${workspaceId}`)),
    companiesToProvision: () => Promise.resolve(['com_a', 'com_b']),
    provisionCompany: (companyId: string) => {
      calls.push(`provisionCompany ${companyId}`);
      if ((failuresLeft[companyId] ?? 0) > 0) {
        failuresLeft[companyId]! -= 1;
        return Promise.reject(new Error('the provider is unavailable'));
      }
      return Promise.resolve('live');
    },
  };
  return runOnOwnWorker(
    temporalAddress,
    `kyc-review-test-${name}`,
    activities,
    async (client, run) => {
      const handle = await client.workflow.start<typeof kycReviewWorkflow>('kycReviewWorkflow', {
        ...run,
        args: [{ workspaceId: 'wsp_test', submission: 1 }],
        typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.kycStatus, value: 'pending' }],
      });
      for (const signal of signals) await handle.signal('review', signal);
      return handle;
    },
    async (handle, result) => ({
      result,
      calls,
      statusAttribute: (await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.kycStatus),
      workflowId: handle.workflowId,
    }),
  );
}
