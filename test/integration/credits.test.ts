import { applyCreditOperation, ledgerTotals } from '../../services/credits/operations';
import { validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { LIVE, liveSender, postLive, sendingAccount, waitForStatus } from '../support/documents';
import { ops } from '../support/ops';
import { until } from '../support/until';

/**
 * Prepaid credits for live sending: reserved when a live document is
 * accepted, released when it fails, never below zero however many requests
 * race, with a ledger that always adds up to the balance; and the operator's
 * CLI that tops up, suspends and disables.
 */

/** A live sender is a KYC review and an approval, and each ops command a Node process: on a loaded CI machine a test took more than a minute. */
jest.setTimeout(180_000);

const liveDocument = (companyId: string, number: string, extra: Record<string, unknown> = {}) => ({
  ...validFixtures[0]!.body,
  company_id: companyId,
  number,
  ...extra,
});
const balanceOf = async (key: string, workspaceId: string) =>
  (await callAs(key, `/v1/workspaces/${workspaceId}`)).body.credit_balance as string;

describe('credits for live sending', () => {
  it('when the workspace is not verified, then a live document is 403 workspace_not_verified saying what to do', async () => {
    const sender = await sendingAccount();
    const live = await callAs(sender.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false } });
    const response = await postLive(live.body.api_key, liveDocument(sender.companyId, 'L-1'));
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('workspace_not_verified');
    expect(response.body.error.message).toContain('/v1/kyc/submit');
  });

  it('when the balance does not cover a live document, then 402 insufficient_credits with balance and price, and nothing is stored', async () => {
    const sender = await liveSender();
    const response = await postLive(sender.liveKey, liveDocument(sender.companyId, 'L-2'));
    expect(response.status).toBe(402);
    expect(response.body.error).toMatchObject({
      type: 'payment_error',
      code: 'insufficient_credits',
      details: { balance: '0.00', price: '0.10' },
    });
    expect(
      (await callAs(sender.liveKey, `/v1/documents?company_id=${sender.companyId}`, { host: LIVE })).body.data,
    ).toEqual([]);
  });

  it('when the operator adds credits, then the workspace shows them, the trail names the operator, and a bad amount or workspace is one line and exit 1', async () => {
    const sender = await liveSender();
    const added = await ops('credits', 'add', sender.workspaceId, '12.30');
    expect(added).toMatchObject({ code: 0, stdout: `balance of ${sender.workspaceId}: 12.30 EUR\n` });
    expect(await balanceOf(sender.key, sender.workspaceId)).toBe('12.30');
    const audit = await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}/audit`);
    expect(audit.body.data[0]).toMatchObject({ action: 'credits.added', details: { amount: '12.30' } });

    const bad = await ops('credits', 'add', sender.workspaceId, '1.23456');
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect((await ops('credits', 'add', 'wsp_doesnotexist', '1.00')).stderr).toBe(
      'ops: no workspace wsp_doesnotexist\n',
    );
    expect((await ops('credits', 'fly')).code).toBe(2);
    expect(await ops('help')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('credits add <workspace> <amount>'),
    });
  });

  it('when 50 live documents race against a balance for 20, then exactly 20 are accepted, 30 get 402, the balance is 0.00 and the ledger adds up to it', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '2.00');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postLive(sender.liveKey, liveDocument(sender.companyId, `RACE-${i}`))),
    );
    expect(responses.filter((response) => response.status === 202)).toHaveLength(20);
    expect(responses.filter((response) => response.status === 402)).toHaveLength(30);
    expect(await balanceOf(sender.key, sender.workspaceId)).toBe('0.00');
    const shown = JSON.parse((await ops('credits', 'show', sender.workspaceId)).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({ balance: '0.00', ledger_total: '0.00', ledger_entries: 21, consistent: true });
  });

  it('when top-ups race with live documents, then no top-up and no charge is lost', async () => {
    const sender = await liveSender();
    const topUps = Array.from({ length: 25 }, (_, i) =>
      withStore((store) =>
        applyCreditOperation(store, sender.workspaceId, {
          id: `topup:race-${sender.workspaceId}-${i}`,
          kind: 'top_up',
          amountUnits: 1_000,
        }),
      ),
    );
    const sends = Array.from({ length: 30 }, (_, i) =>
      postLive(sender.liveKey, liveDocument(sender.companyId, `MIX-${i}`)),
    );
    const [, responses] = await Promise.all([Promise.all(topUps), Promise.all(sends)]);
    const accepted = responses.filter((response) => response.status === 202).length;
    expect(accepted + responses.filter((response) => response.status === 402).length).toBe(30);
    const totals = await withStore((store) => ledgerTotals(store, sender.workspaceId));
    expect(totals).toEqual({
      balanceUnits: 25_000 - accepted * 1_000,
      ledgerUnits: 25_000 - accepted * 1_000,
      entries: 25 + accepted,
    });
  });

  it('when the balance falls below the threshold, then responses carry X-Credits-Remaining and credits.low is raised once for the crossing', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '5.15');
    const first = await postLive(sender.liveKey, liveDocument(sender.companyId, 'LOW-1'));
    expect(first.headers.get('x-credits-remaining')).toBeNull();
    const second = await postLive(sender.liveKey, liveDocument(sender.companyId, 'LOW-2'));
    expect(second.headers.get('x-credits-remaining')).toBe('4.95');
    const third = await postLive(sender.liveKey, liveDocument(sender.companyId, 'LOW-3'));
    expect(third.headers.get('x-credits-remaining')).toBe('4.85');
    // Raised within the request that crossed, so counted once all three are answered; the feed lists it once 2 s old.
    expect(
      await withStore((store) =>
        store.events.countDocuments({ workspace_id: sender.workspaceId, environment: 'live', type: 'credits.low' }),
      ),
    ).toBe(1);
    const events = await until(
      'credits.low in the feed',
      () => callAs(sender.liveKey, '/v1/events?type=credits.low', { host: LIVE }),
      (response) => response.body.data?.length > 0,
      10_000,
    );
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toEqual({ company_id: sender.companyId, balance: 4.95, threshold: 5 });
  });

  it('when the operator gives a workspace its own price, then live documents cost that, and the workspace shows it', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '1.00');
    expect((await ops('credits', 'price', sender.workspaceId, '0.25')).code).toBe(0);
    expect((await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.document_price).toBe('0.25');
    expect((await postLive(sender.liveKey, liveDocument(sender.companyId, 'PRICED'))).status).toBe(202);
    expect(await balanceOf(sender.key, sender.workspaceId)).toBe('0.75');
    expect((await ops('credits', 'price', sender.workspaceId, 'default')).code).toBe(0);
    expect((await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.document_price).toBe('0.10');
  });

  it('when a batch runs past the balance, then the entries beyond it are 402 entries and the others go', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '0.20');
    const batch = await callAs(sender.liveKey, '/v1/documents/batch', {
      method: 'POST',
      host: LIVE,
      body: [0, 1, 2].map((i) => liveDocument(sender.companyId, `BATCH-${i}`)),
    });
    expect(batch.status).toBe(202);
    expect(
      batch.body.map((entry: { status?: string; error?: { code: string } }) => entry.status ?? entry.error?.code),
    ).toEqual(['queued', 'queued', 'insufficient_credits']);
    expect(batch.headers.get('x-credits-remaining')).toBe('0.00');
  });

  it('when the balance covers none of a live batch, then 402 insufficient_credits for the whole request, nothing queued or charged', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '0.05');
    const batch = await callAs(sender.liveKey, '/v1/documents/batch', {
      method: 'POST',
      host: LIVE,
      body: [0, 1].map((i) => liveDocument(sender.companyId, `UNPAID-${i}`)),
    });
    expect(batch.status).toBe(402);
    expect(batch.body.error).toMatchObject({
      code: 'insufficient_credits',
      details: { balance: '0.05', price: '0.10' },
    });
    expect(await balanceOf(sender.key, sender.workspaceId)).toBe('0.05');
    const listed = await callAs(sender.liveKey, `/v1/documents?company_id=${sender.companyId}`, { host: LIVE });
    expect(listed.body.data).toHaveLength(0);
  });

  it('when a live document fails, then its reservation goes back to the balance, once', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '1.00');
    // Refused by the official rules in the validating step: it fails before it is sent.
    const lines = [{ description: 'Consulting', quantity: 1, unit: 'QQQ', unit_price: '100.00', tax_rate: 21 }];
    const posted = await postLive(sender.liveKey, liveDocument(sender.companyId, 'FAILS', { lines }));
    expect(posted.status).toBe(202);
    // The balance the reservation left: read from the answer, since a warm validator may refuse and release it before a later read.
    expect(posted.headers.get('x-credits-remaining')).toBe('0.90');
    await waitForStatus(sender.liveKey, posted.body.id, sender.companyId, ['failed'], 30_000, { host: LIVE });
    await until(
      'the reservation released',
      () => balanceOf(sender.key, sender.workspaceId),
      (balance) => balance === '1.00',
      5_000,
    );
    const totals = await withStore((store) => ledgerTotals(store, sender.workspaceId));
    expect(totals).toEqual({ balanceUnits: 10_000, ledgerUnits: 10_000, entries: 3 });
  });

  it('when the operator suspends a workspace, then live sending is 403 workspace_suspended with the reason, the sandbox still works, and resume lifts it', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '1.00');
    expect((await ops('workspace', 'suspend', sender.workspaceId, 'unpaid', 'invoice')).code).toBe(0);
    const workspace = await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`);
    expect(workspace.body).toMatchObject({ suspended: true, suspension_reason: 'unpaid invoice', mode: 'live' });
    const refused = await postLive(sender.liveKey, liveDocument(sender.companyId, 'SUSP-1'));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'workspace_suspended',
      message: expect.stringContaining('unpaid invoice'),
    });
    expect(
      (
        await callAs(sender.key, '/v1/documents', {
          method: 'POST',
          body: liveDocument(sender.companyId, 'SUSP-SANDBOX'),
        })
      ).status,
    ).toBe(202);
    expect((await ops('workspace', 'suspend', sender.workspaceId, 'again')).stderr).toContain('suspended already');
    expect((await ops('workspace', 'resume', sender.workspaceId, 'paid')).code).toBe(0);
    expect((await postLive(sender.liveKey, liveDocument(sender.companyId, 'SUSP-2'))).status).toBe(202);
    const actions = (await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}/audit`)).body.data.map(
      (entry: { action: string }) => entry.action,
    );
    expect(actions.slice(0, 2)).toEqual(['workspace.resumed', 'workspace.suspended']);
  });

  it('when the operator disables an account, then its keys are 403 disabled_account until it is enabled again', async () => {
    const sender = await sendingAccount();
    expect((await ops('account', 'disable', sender.id)).code).toBe(0);
    const refused = await callAs(sender.key, '/v1/account');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('disabled_account');
    expect((await ops('account', 'enable', sender.id)).code).toBe(0);
    expect((await callAs(sender.key, '/v1/account')).status).toBe(200);
  });
});
