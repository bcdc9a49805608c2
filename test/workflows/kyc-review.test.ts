import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';

import { cachedWorkflowBundle } from '../../worker/workflow-bundle';
import type { kycReviewWorkflow } from '../../workflows/kyc-review';
import { SEARCH_ATTRIBUTES, type KycDecision } from '../../workflows/shared';
import { sharedStack } from '../support/test-stack';

/**
 * The review workflow on the shared stack's dev server with its activities
 * stubbed: what it calls after each decision, and that a company the
 * provider refuses for a while is retried without holding back the others.
 */

async function review(name: string, signals: unknown[], provisionFailures: Record<string, number> = {}) {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process.
  }
  const taskQueue = `kyc-review-test-${name}-${Date.now()}`;
  const calls: string[] = [];
  const failuresLeft = { ...provisionFailures };
  const activities = {
    recordKycReview: (workspaceId: string, submission: number, { decision, reason }: KycDecision) => {
      calls.push(`recordKycReview ${workspaceId} #${submission} ${decision}`);
      return Promise.resolve(decision === 'approve' ? { status: 'approved', rejectReason: null } : { status: 'rejected', rejectReason: reason ?? 'none given' });
    },
    onboardKycWorkspace: (workspaceId: string) => Promise.resolve(void calls.push(`onboardKycWorkspace ${workspaceId}`)),
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
  const native = await NativeConnection.connect({ address: sharedStack().temporalAddress });
  const connection = await Connection.connect({ address: sharedStack().temporalAddress });
  try {
    const worker = await Worker.create({ connection: native, taskQueue, workflowBundle: { codePath: await cachedWorkflowBundle() }, activities });
    const client = new Client({ connection });
    const handle = await client.workflow.start<typeof kycReviewWorkflow>('kycReviewWorkflow', {
      taskQueue,
      workflowId: `${taskQueue}-run`,
      args: [{ workspaceId: 'wsp_test', submission: 1 }],
      typedSearchAttributes: [{ key: SEARCH_ATTRIBUTES.kycStatus, value: 'pending' }],
    });
    // Sent before the worker runs, so the run sees them all, in order, whatever it decides.
    for (const signal of signals) await handle.signal('review', signal);
    const result = await worker.runUntil(handle.result());
    const description = await handle.describe();
    return { result, calls, statusAttribute: description.typedSearchAttributes.get(SEARCH_ATTRIBUTES.kycStatus) };
  } finally {
    await connection.close();
    await native.close();
  }
}

describe('the KYC review workflow', () => {
  it('when approved, then it records the decision, onboards, and provisions each company, retrying one the provider refuses for a while', async () => {
    const run = await review('approve', [{ decision: 'approve' }], { com_b: 2 });
    expect(run.result).toEqual({ workspaceId: 'wsp_test', submission: 1, status: 'approved', rejectReason: null, provisioned: ['com_a', 'com_b'], provisioning: [] });
    expect(run.calls.slice(0, 2)).toEqual(['recordKycReview wsp_test #1 approve', 'onboardKycWorkspace wsp_test']);
    expect(run.calls.filter((call) => call === 'provisionCompany com_b')).toHaveLength(3);
    expect(run.statusAttribute).toBe('approved');
  });

  it('when signals that decide nothing come before a rejection and an approval after it, then only the rejection is recorded and nothing is provisioned', async () => {
    const run = await review('reject', [{ decision: 'maybe' }, { reason: 'no decision' }, { decision: 'reject', reason: 'Blurred ID' }, { decision: 'approve' }]);
    expect(run.result).toMatchObject({ status: 'rejected', rejectReason: 'Blurred ID', provisioned: [] });
    expect(run.calls).toEqual(['recordKycReview wsp_test #1 reject']);
    expect(run.statusAttribute).toBe('rejected');
  });
});
