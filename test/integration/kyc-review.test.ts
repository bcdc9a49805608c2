import type { WorkflowHandle } from '@temporalio/client';

import { ATTESTATION_VERSION } from '../../domain/kyc/attestation';
import { EMBEDDED_REFUSAL_MARKER } from '../../platform/peppol/participant-onboarding';
import { createLogger } from '../../platform/logger';
import { reconcileKycReviews, remindReviewers } from '../../services/kyc/review';
import { kycSubmissionId } from '../../store/kyc-submissions';
import { kycWorkflowId, provisionWorkflowId, SEARCH_ATTRIBUTES } from '../../workflows/shared';
import { callAs, withStore } from '../support/accounts';
import {
  completeSubmission,
  createCompany,
  pdfUpload,
  readyToSubmit,
  submit,
  upload,
  waitForKyc,
} from '../support/kyc';
import { inboxFor } from '../support/documents';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

/**
 * The review as the operator drives it: through Temporal (what the Web UI
 * and the ops CLI do), by signal `review` on workflow `kyc-<workspace id>`.
 * The embedded provider refuses companies whose name contains its marker.
 */

const temporal = sharedTemporalClient();

const liveness = async (key: string) =>
  Object.fromEntries(
    ((await callAs(key, '/v1/companies')).body.data as { id: string; is_live: boolean }[]).map((company) => [
      company.id,
      company.is_live,
    ]),
  );

/** A submitted workspace and the handle of its review. */
async function submitted(label: string) {
  const account = await readyToSubmit(label);
  const response = await submit(account.key, completeSubmission(account.companyId));
  expect(response.status).toBe(200);
  return { ...account, review: temporal().workflow.getHandle(kycWorkflowId(account.workspaceId)) };
}

async function approved(label: string) {
  const account = await submitted(label);
  await account.review.signal('review', { decision: 'approve' });
  await until(
    'the own company going live',
    () => liveness(account.key),
    (live) => live[account.companyId] === true,
  );
  return account;
}

const stateOf = (review: WorkflowHandle) => review.query<Record<string, unknown>>('state');

/** The workspace's audit actions, newest first. */
const auditActions = async (account: { key: string; workspaceId: string }): Promise<string[]> =>
  (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit?limit=100`)).body.data.map(
    (event: { action: string }) => event.action,
  );

describe('the KYC review workflow', () => {
  it('when the operator approves by signal, then the workspace is approved and live, and a company the provider refuses holds back no other', async () => {
    const account = await readyToSubmit('approve');
    const second = await createCompany(account.key, 'Second BV');
    const refused = await createCompany(account.key, `Refused ${EMBEDDED_REFUSAL_MARKER} BV`);
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    const review = temporal().workflow.getHandle(kycWorkflowId(account.workspaceId));

    const pending = await review.describe();
    expect(pending.typedSearchAttributes.get(SEARCH_ATTRIBUTES.kycStatus)).toBe('pending');
    expect(pending.typedSearchAttributes.get(SEARCH_ATTRIBUTES.workspaceId)).toBe(account.workspaceId);
    expect(await stateOf(review)).toMatchObject({ status: 'pending', submission: 1, workspaceId: account.workspaceId });
    const listed = await until(
      'the pending review in the list an operator filters',
      async () => {
        const ids: string[] = [];
        for await (const execution of temporal().workflow.list({
          query: `KycStatus = "pending" AND WorkspaceId = "${account.workspaceId}"`,
        }))
          ids.push(execution.workflowId);
        return ids;
      },
      (ids) => ids.length > 0,
    );
    expect(listed).toEqual([kycWorkflowId(account.workspaceId)]);

    await review.signal('review', { decision: 'approve' });
    const state = await waitForKyc(account.key, (kyc) => kyc.status === 'approved');
    expect(state).toMatchObject({ status: 'approved', reviewed_at: expect.any(String), reject_reason: null });
    const live = await until(
      'provisioning',
      () => liveness(account.key),
      (companies) => companies[account.companyId] === true && companies[second] === true,
    );
    expect(live[refused]).toBe(false);
    const progress = await until(
      'the workflow’s progress',
      () => stateOf(review),
      (current) => (current.provisioned as string[]).length === 2,
    );
    expect(progress).toMatchObject({
      status: 'approved',
      provisioning: [refused],
      provisioned: expect.arrayContaining([account.companyId, second]),
    });
    expect((await review.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.kycStatus)).toBe('approved');
    expect((await callAs(account.key, `/v1/workspaces/${account.workspaceId}`)).body.mode).toBe('live');

    const actions = await until(
      'the audit trail',
      () => auditActions(account),
      (all) => all.filter((action) => action === 'company.provisioned').length === 2,
    );
    expect(actions.filter((action) => action.startsWith('kyc.') || action === 'company.provisioned').reverse()).toEqual(
      [
        'kyc.document_uploaded',
        'kyc.document_uploaded',
        'kyc.document_uploaded',
        'kyc.submitted',
        'kyc.approved',
        'company.provisioned',
        'company.provisioned',
      ],
    );
    const locked = await upload(account.key, pdfUpload('registry_extract'));
    expect(locked.body.error).toMatchObject({ code: 'kyc_locked', details: { status: 'approved' } });
    const again = await submit(account.key, completeSubmission(account.companyId));
    expect(again.body.error).toMatchObject({ code: 'kyc_not_submittable', details: { status: 'approved' } });
  });

  it('when a company is created after approval, then it is live at once; one the provider refuses is created not live and its own workflow retries', async () => {
    const account = await approved('later');
    const created = await callAs(account.key, '/v1/companies', {
      method: 'POST',
      body: { name: 'Later BV', country: 'NL' },
    });
    expect(created.status).toBe(201);
    expect(created.body.is_live).toBe(true);

    const failing = await callAs(account.key, '/v1/companies', {
      method: 'POST',
      body: { name: `Later ${EMBEDDED_REFUSAL_MARKER} BV`, country: 'NL' },
    });
    expect(failing.status).toBe(201);
    expect(failing.body.is_live).toBe(false);
    const retrying = await temporal().workflow.getHandle(provisionWorkflowId(failing.body.id)).describe();
    expect(retrying.status.name).toBe('RUNNING');
    expect(retrying.typedSearchAttributes.get(SEARCH_ATTRIBUTES.companyId)).toBe(failing.body.id);
    expect((await callAs(account.key, `/v1/companies/${failing.body.id}`)).body.is_live).toBe(false);
  });

  it('when a live company’s peppol_id is changed to one the provider refuses, then 502 provider_update_failed and nothing changes; one it takes is stored', async () => {
    const account = await approved('participant');
    const path = `/v1/companies/${account.companyId}`;
    const refused = await callAs(account.key, path, {
      method: 'PATCH',
      body: { peppol_id: `0060:${EMBEDDED_REFUSAL_MARKER}`, name: 'Renamed BV' },
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'provider_update_failed', param: 'peppol_id' });
    expect((await callAs(account.key, path)).body).toMatchObject({
      peppol_id: '0208:0123456749',
      name: 'Acme BV',
      is_live: true,
    });

    const taken = await callAs(account.key, path, { method: 'PATCH', body: { peppol_id: '0060:123456789' } });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ peppol_id: '0060:123456789', is_live: true });

    // A company that is not live has nothing to push: the same value is simply stored.
    const notLive = await callAs(account.key, '/v1/companies', {
      method: 'POST',
      body: { name: `Quiet ${EMBEDDED_REFUSAL_MARKER} BV`, country: 'BE' },
    });
    const changed = await callAs(account.key, `/v1/companies/${notLive.body.id}`, {
      method: 'PATCH',
      body: { peppol_id: `0060:${EMBEDDED_REFUSAL_MARKER}` },
    });
    expect(changed.status).toBe(200);
  });

  it('when the operator rejects by signal, then rejected with the reason, uploads reopen, and a resubmission is reviewed by a new run under the same id', async () => {
    const account = await submitted('reject');
    await account.review.signal('review', { decision: 'maybe' });
    expect(await stateOf(account.review)).toMatchObject({ status: 'pending' });
    await account.review.signal('review', {
      decision: 'reject',
      reason: 'The registry extract is older than three months.',
      operator: 'operator:alice',
    });
    const rejected = await waitForKyc(account.key, (kyc) => kyc.status === 'rejected');
    await until(
      'the rejection in the audit trail',
      () => auditActions(account),
      (actions) => actions.includes('kyc.rejected'),
    );
    const trail = (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit?limit=100`)).body.data;
    expect(trail.find((event: { action: string }) => event.action === 'kyc.rejected')).toMatchObject({
      actor: { account_id: 'operator:alice', key_prefix: null },
      target: { type: 'kyc_submission', id: `kyc-${account.workspaceId}#1` },
      details: { submission: 1, reason: 'The registry extract is older than three months.' },
    });
    expect(rejected).toMatchObject({
      reject_reason: 'The registry extract is older than three months.',
      reviewed_at: expect.any(String),
      review_reference: `kyc-${account.workspaceId}#1`,
    });
    expect(rejected.requirements.can_submit).toBe(true);
    const firstRun = await account.review.describe();

    expect((await upload(account.key, pdfUpload('registry_extract', { filename: 'fresh-extract.pdf' }))).status).toBe(
      201,
    );
    const resubmitted = await submit(account.key, completeSubmission(account.companyId));
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body).toMatchObject({
      status: 'pending',
      reject_reason: null,
      reviewed_at: null,
      review_reference: `kyc-${account.workspaceId}#2`,
    });
    const secondRun = await account.review.describe();
    expect(secondRun.runId).not.toBe(firstRun.runId);
    expect(
      (await temporal().workflow.getHandle(account.review.workflowId, firstRun.runId).describe()).status.name,
    ).toBe('COMPLETED');
    expect(await stateOf(account.review)).toMatchObject({ status: 'pending', submission: 2 });

    await account.review.signal('review', { decision: 'approve' });
    await waitForKyc(account.key, (kyc) => kyc.status === 'approved');
    const actions = await until(
      'the approval in the audit trail',
      () => auditActions(account),
      (all) => all.includes('kyc.approved'),
    );
    expect(
      actions.filter((action) => ['kyc.submitted', 'kyc.rejected', 'kyc.approved'].includes(action)).reverse(),
    ).toEqual(['kyc.submitted', 'kyc.rejected', 'kyc.submitted', 'kyc.approved']);
  });

  it('when a review waits, then the operators’ reminder names the workspace, the submission and how to decide; once it is decided, no reminder is sent', async () => {
    const account = await submitted('reminded');
    const operators = `operators-${account.workspaceId}@example.com`;
    const deps = {
      smtpUrl: sharedStack().smtpUrl,
      mailFrom: 'E-invoice <service@einvoice.localhost>',
      operatorEmail: operators,
    };
    await withStore((store) => remindReviewers({ store, ...deps }, account.workspaceId, 1, 2));
    const [reminder] = await until(
      'the reminder',
      () => inboxFor(operators),
      (messages) => messages.length === 1,
    );
    expect(reminder!.subject).toMatch(
      new RegExp(`^KYC review waiting 2 days: .+ \\(${kycWorkflowId(account.workspaceId)}#1\\)$`),
    );
    const text = (await (await fetch(`${sharedStack().inboxUrl}/email/${reminder!.id}`)).json()) as { text: string };
    expect(text.text).toContain(`kyc approve ${account.workspaceId}`);
    expect(text.text).toContain('signal `review`');

    await account.review.signal('review', { decision: 'reject', reason: 'unreadable' });
    await waitForKyc(account.key, (kyc) => kyc.status === 'rejected');
    await withStore((store) => remindReviewers({ store, ...deps }, account.workspaceId, 1, 3));
    expect(await inboxFor(operators)).toHaveLength(1);
  });

  it('when a submission was stored but its review never started, then the reconciler starts it and the operator can decide it', async () => {
    const account = await readyToSubmit('reconcile');
    const minuteAgo = new Date(Date.now() - 60_000);
    await withStore(async (store) => {
      // What the API leaves behind when Temporal does not answer right after the insert.
      await store.kycSubmissions.create({
        _id: kycSubmissionId(account.workspaceId, 1),
        workspace_id: account.workspaceId,
        number: 1,
        status: 'pending',
        company_id: account.companyId,
        legal_name: 'Acme BV',
        enterprise_number: '0123456749',
        attestation_name: 'Ann Owner',
        attestation_role: 'Director',
        attestation_version: ATTESTATION_VERSION,
        document_ids: [],
        submitted_by: account.id,
        submitted_at: minuteAgo,
      });
      expect(await reconcileKycReviews(store, temporal(), createLogger('silent', 'test'))).toBeGreaterThanOrEqual(1);
    });
    const review = temporal().workflow.getHandle(kycWorkflowId(account.workspaceId));
    expect(await stateOf(review)).toMatchObject({ status: 'pending', submission: 1 });
    await review.signal('review', { decision: 'reject', reason: 'Unreadable scan.' });
    expect(await waitForKyc(account.key, (kyc) => kyc.status === 'rejected')).toMatchObject({
      reject_reason: 'Unreadable scan.',
    });
  });
});
