import { sharedStack } from '../support/test-stack';
import { KYC_SCENARIOS, runKycScenario } from './kyc-scenarios';

/**
 * The review workflow on the shared stack's dev server with its activities
 * stubbed: what it calls after each decision, and that a company the
 * provider refuses for a while is retried without holding back the others.
 */

const review = (name: string) =>
  runKycScenario(
    sharedStack().temporalAddress,
    KYC_SCENARIOS.find((scenario) => scenario.name === name)!,
  );

describe('the KYC review workflow', () => {
  it('when approved, then it records the decision, onboards, and provisions each company, retrying one the provider refuses for a while', async () => {
    const run = await review('approved-one-company-retried');
    expect(run.result).toEqual({
      workspaceId: 'wsp_test',
      submission: 1,
      status: 'approved',
      rejectReason: null,
      provisioned: ['com_a', 'com_b'],
      provisioning: [],
    });
    expect(run.calls.slice(0, 2)).toEqual(['recordKycReview wsp_test #1 approve', 'onboardKycWorkspace wsp_test']);
    expect(run.calls.filter((call) => call === 'provisionCompany com_b')).toHaveLength(3);
    expect(run.statusAttribute).toBe('approved');
  });

  it('when signals that decide nothing come before a rejection and an approval after it, then only the rejection is recorded and nothing is provisioned', async () => {
    const run = await review('rejected-after-signals-that-decide-nothing');
    expect(run.result).toMatchObject({ status: 'rejected', rejectReason: 'Blurred ID', provisioned: [] });
    expect(run.calls).toEqual(['recordKycReview wsp_test #1 reject']);
    expect(run.statusAttribute).toBe('rejected');
  });
});
