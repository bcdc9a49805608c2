import { callAs } from '../support/accounts';
import { LIVE } from '../support/documents';
import { completeSubmission, createCompany, readyToSubmit, submit, waitForKyc } from '../support/kyc';
import { ops } from '../support/ops';
import { liveReceiver, smlRecord, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';

/**
 * A live company receives whatever is sent to its Peppol id, so the id must be
 * proven to be its own before our SMP and the SML publish it: the id its KYC
 * review verified, or one whose scheme carries its verified registration id or
 * VAT number. The takeover a security probe found (a live company switching
 * to another business's enterprise number, registered at once) is held for an
 * operator's review; the operator decides with `ops participants`.
 */

const companyOf = (key: string, companyId: string) => callAs(key, `/v1/companies/${companyId}`);

const receivingStatus = (key: string, companyId: string, status: string) =>
  until(
    `receiving ${status}`,
    () => companyOf(key, companyId),
    (response) => response.body.receiving?.status === status,
    90_000,
  );

const auditTrail = async (account: { key: string; workspaceId: string }) =>
  (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit?limit=100`)).body.data as {
    action: string;
    details: Record<string, unknown>;
  }[];

/** The enterprise number inside a 0208 participant id. */
const numberOf = (peppolId: string) => peppolId.slice('0208:'.length);

describe('a participant id only for the company that owns it', () => {
  it('when a live company switches to another business’s enterprise number, then nothing of it is registered until an operator decides, and a refusal keeps it out', async () => {
    const receiver = await liveReceiver();
    const victim = uniqueBelgianPeppolId();

    const patched = await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
      method: 'PATCH',
      body: { peppol_id: victim },
    });
    expect(patched.status).toBe(200);
    const held = await receivingStatus(receiver.key, receiver.companyId, 'awaiting_review');
    expect(held.body.receiving).toMatchObject({
      participant_id: victim,
      error_message: expect.stringContaining(`${victim} is not the company's verified registration id or VAT number`),
    });
    expect(held.body.participant_review).toMatchObject({ status: 'pending', peppol_id: victim, decided_at: null });
    // Neither the new id nor the old one is published: the company asked to leave the old one.
    expect((await smlRecord(victim)).registered).toBe(false);
    expect((await smlRecord(receiver.peppolId)).registered).toBe(false);

    const listed = await ops('participants');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(receiver.companyId);
    expect(listed.stdout).toContain(`peppol_id ${victim}`);

    const rejected = await ops('participants', 'reject', receiver.companyId, 'not', 'the', "company's", 'number');
    expect(rejected).toMatchObject({ code: 0 });
    const failed = await receivingStatus(receiver.key, receiver.companyId, 'failed');
    expect(failed.body.receiving.error_message).toBe(`The review refused ${victim}: not the company's number`);
    expect(failed.body.participant_review).toMatchObject({ status: 'rejected', reason: "not the company's number" });
    expect((await smlRecord(victim)).registered).toBe(false);
    expect((await ops('participants')).stdout).not.toContain(receiver.companyId);

    const actions = (await auditTrail(receiver)).map((event) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'company.updated',
        'company.participant_review_requested',
        'company.participant_review_rejected',
      ]),
    );
    const events = (await callAs(receiver.liveKey, `/v1/events?type=company.receiving_awaiting_review`, { host: LIVE }))
      .body.data;
    expect(events).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ participant_id: victim, status: 'awaiting_review' }) }),
    ]);
    // A live company, two operator decisions by the ops CLI (a process each) and SML checks: a minute when quiet, more in a busy suite.
  }, 150_000);

  it('when the operator approves a participant id under review, then it is registered, and the audit trail says who proved it', async () => {
    const receiver = await liveReceiver();
    const another = uniqueBelgianPeppolId();
    await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
      method: 'PATCH',
      body: { peppol_id: another },
    });
    await receivingStatus(receiver.key, receiver.companyId, 'awaiting_review');

    const approved = await ops('participants', 'approve', receiver.companyId);
    expect(approved).toMatchObject({ code: 0, stdout: expect.stringContaining(`${another} approved`) });
    const registered = await receivingStatus(receiver.key, receiver.companyId, 'registered');
    expect(registered.body.receiving.participant_id).toBe(another);
    expect(registered.body.participant_review).toMatchObject({ status: 'approved', peppol_id: another });
    expect((await smlRecord(another)).registered).toBe(true);
    const trail = await auditTrail(receiver);
    expect(trail.find((event) => event.action === 'company.participant_review_approved')).toBeDefined();
    expect(
      trail.find(
        (event) => event.action === 'company.participant_registered' && event.details.participant_id === another,
      )?.details,
    ).toMatchObject({ proof: 'verified_peppol_id' });
  });

  it('when a live company switches to an id that carries its verified VAT number, then it is registered at once, with no review', async () => {
    const enterpriseNumber = numberOf(uniqueBelgianPeppolId());
    const receiver = await liveReceiver({ company_registration_id: enterpriseNumber, tax_id: `BE${enterpriseNumber}` });
    const vatId = `9925:BE${enterpriseNumber}`;

    await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, { method: 'PATCH', body: { peppol_id: vatId } });
    const registered = await until(
      'the VAT participant registered',
      () => companyOf(receiver.key, receiver.companyId),
      (response) =>
        response.body.receiving?.status === 'registered' && response.body.receiving.participant_id === vatId,
      90_000,
    );
    expect(registered.body.participant_review).toBeNull();
    expect((await smlRecord(vatId)).registered).toBe(true);
    const trail = await auditTrail(receiver);
    expect(
      trail.find((event) => event.action === 'company.participant_registered' && event.details.participant_id === vatId)
        ?.details,
    ).toMatchObject({ proof: 'tax_id', scheme: '9925' });
  });

  it('when a live company changes its VAT number, then its verified id stays registered while an operator reviews the new number', async () => {
    const receiver = await liveReceiver();
    await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
      method: 'PATCH',
      body: { tax_id: 'BE0987654394' },
    });
    const reviewed = await until(
      'the review',
      () => companyOf(receiver.key, receiver.companyId),
      (response) => response.body.participant_review?.status === 'pending',
      90_000,
    );
    expect(reviewed.body.participant_review.reason).toBe('its tax_id changed after verification');
    expect(reviewed.body.receiving).toMatchObject({ status: 'registered', participant_id: receiver.peppolId });
    expect((await smlRecord(receiver.peppolId)).registered).toBe(true);
  });

  it('when a company is created in an approved workspace with a Peppol id, then that id waits for a review: the approval covered only the companies it saw', async () => {
    const receiver = await liveReceiver();
    const peppolId = uniqueBelgianPeppolId();
    const companyId = await createCompany(receiver.key, 'Later BV', { peppol_id: peppolId });
    const held = await receivingStatus(receiver.key, companyId, 'awaiting_review');
    expect(held.body.participant_review.reason).toContain('not part of an approved KYC review');
    expect((await smlRecord(peppolId)).registered).toBe(false);
  });

  it('when a company changes its Peppol id after the workspace submitted its KYC and before the approval, then the approval does not cover the new id: it waits for a review', async () => {
    const account = await readyToSubmit('receiver');
    const submittedId = uniqueBelgianPeppolId();
    expect(
      (
        await callAs(account.key, `/v1/companies/${account.companyId}`, {
          method: 'PATCH',
          body: { peppol_id: submittedId },
        })
      ).status,
    ).toBe(200);
    expect((await submit(account.key, completeSubmission(account.companyId))).status).toBe(200);
    // While the operator reviews what was submitted, the company switches to another business's number.
    const switchedId = uniqueBelgianPeppolId();
    expect(
      (
        await callAs(account.key, `/v1/companies/${account.companyId}`, {
          method: 'PATCH',
          body: { peppol_id: switchedId },
        })
      ).status,
    ).toBe(200);
    expect((await ops('kyc', 'approve', account.workspaceId)).code).toBe(0);
    await waitForKyc(account.key, (state) => state.status === 'approved');

    const held = await receivingStatus(account.key, account.companyId, 'awaiting_review');
    expect(held.body.participant_review.reason).toContain('not part of an approved KYC review');
    expect((await smlRecord(switchedId)).registered).toBe(false);
  });
});
