import { kycSubmissionId } from '../../store/kyc-submissions';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { waitForStatus } from '../support/documents';
import { completeSubmission, readyToSubmit, submit, waitForKyc } from '../support/kyc';
import { ops } from '../support/ops';

/**
 * The operator's KYC commands, and the whole way a new user goes live: sign
 * up, company, KYC documents, submit; the operator approves and adds
 * credits with the ops CLI; a live key sends.
 */
describe('the ops CLI for KYC review', () => {
  it('when a submission is pending, then kyc list shows it, kyc approve approves it by signal, and a live key then sends with the credits the operator added', async () => {
    const account = await readyToSubmit('ops-approve');
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);

    const listed = await ops('kyc', 'list', '--status', 'pending');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${account.workspaceId}  pending`);
    expect(JSON.parse((await ops('kyc', 'show', account.workspaceId)).stdout)).toMatchObject({ status: 'pending' });

    const approved = await ops('kyc', 'approve', account.workspaceId);
    expect(approved).toMatchObject({ code: 0, stdout: `workspace ${account.workspaceId}: approved\n` });
    await waitForKyc(account.key, (state) => state.status === 'approved');
    const audit = await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit`);
    expect(audit.body.data.find((entry: { action: string }) => entry.action === 'kyc.approved')).toMatchObject({ actor: { account_id: 'operator:test-operator' } });

    expect((await ops('credits', 'add', account.workspaceId, '1.00')).code).toBe(0);
    // What the seller's invoices need besides its name and Peppol id.
    const { tax_id, company_registration_id, address, iban } = belgianSeller;
    expect((await callAs(account.key, `/v1/companies/${account.companyId}`, { method: 'PATCH', body: { tax_id, company_registration_id, address, iban } })).status).toBe(200);
    const live = await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false, label: 'live' } });
    const body = { ...validFixtures[0]!.body, company_id: account.companyId, number: 'FIRST-LIVE' };
    const sent = await callAs(live.body.api_key, '/v1/documents', { method: 'POST', body, host: 'live.localhost' });
    expect(sent.status).toBe(202);
    expect((await waitForStatus(live.body.api_key, sent.body.id, account.companyId, ['delivered', 'failed'], 30_000, 'live.localhost')).status).toBe('delivered');
    expect((await callAs(account.key, `/v1/workspaces/${account.workspaceId}`)).body).toMatchObject({ mode: 'live', credit_balance: '0.90' });
  });

  it('when a stored legal name holds line breaks, escapes and bidi overrides, then kyc list prints the submission as one row with them escaped', async () => {
    const account = await readyToSubmit('ops-escape');
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    // The API refuses such names now; rows written before the rule (or by another path) may still hold them.
    const forged = `Acme BV\r\nwsp_forged  approved  #1  2026-01-01T00:00:00.000Z  Forged \u001b[2J\u202eVB`;
    await withStore((store) => store.kycSubmissions.updateOne({ _id: kycSubmissionId(account.workspaceId, 1) }, { $set: { legal_name: forged } }));

    const listed = await ops('kyc', 'list', '--status', 'pending');
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split('\n').filter((line) => line.includes(account.workspaceId) || line.includes('wsp_forged'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(new RegExp(`^${account.workspaceId}  pending   #1  \\S+  `));
    expect(rows[0]!.endsWith('  Acme BV\\u000d\\nwsp_forged  approved  #1  2026-01-01T00:00:00.000Z  Forged \\u001b[2J\\u202eVB (0123.456.749)')).toBe(true);
    const raw = /[\r\u001b\u202e]/; // eslint-disable-line no-control-regex -- what must not reach the terminal
    expect(listed.stdout).not.toMatch(raw);
    const shown = await ops('kyc', 'show', account.workspaceId);
    expect(shown.stdout).not.toMatch(raw);
    expect(JSON.parse(shown.stdout).submission.legal_name).toBe(forged);
  });

  it('when the operator rejects, then the customer sees the reason; deciding again, or a workspace without a pending review, is one line and exit 1', async () => {
    const account = await readyToSubmit('ops-reject');
    await submit(account.key, completeSubmission(account.companyId));
    const rejected = await ops('kyc', 'reject', account.workspaceId, 'the registry extract is older than three months');
    expect(rejected.code).toBe(0);
    const state = await waitForKyc(account.key, (current) => current.status === 'rejected');
    expect(state.reject_reason).toBe('the registry extract is older than three months');

    const again = await ops('kyc', 'approve', account.workspaceId);
    expect(again).toMatchObject({ code: 1, stderr: `ops: workspace ${account.workspaceId} has no pending KYC review (status rejected)\n` });
    expect((await ops('kyc', 'approve', 'wsp_doesnotexist')).stderr).toBe('ops: no workspace wsp_doesnotexist\n');
    expect((await ops('kyc', 'list', '--status', 'maybe')).code).toBe(1);
  });
});
