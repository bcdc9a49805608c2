import { IllegalMoveError } from '../../domain/documents/lifecycle';
import { moveDocument } from '../../services/documents/lifecycle';
import { validFixtures } from '../fixtures/documents';
import { callAs, setRateLimit, signUp, teamWorkspace, withStore } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { earlyInAWindow } from '../support/rate-windows';
import { until } from '../support/until';

/**
 * One test per invariant, each under 50 concurrent requests (or operations),
 * on the embedded backend: FerretDB loses concurrent updates and has no
 * transactions, so each invariant must rest on a guard it really gives (a
 * unique insert, or a conditional update made atomic in the embedded build).
 * See docs/identity-and-limits.md, "Invariants and their guards".
 */

const PARALLEL = 50;
const times = <T>(n: number, make: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => make(i)));
const statusCounts = (responses: { status: number }[]) =>
  responses.reduce<Record<number, number>>(
    (counts, { status }) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }),
    {},
  );

describe('invariants under concurrency', () => {
  it('rate-limit slots: of 50 concurrent requests against a limit of 20, exactly 20 pass', async () => {
    const account = await signUp();
    await setRateLimit(account.id, 20);
    await earlyInAWindow();
    const responses = await times(PARALLEL, () => callAs(account.key, '/v1/workspaces'));
    expect(statusCounts(responses)).toEqual({ 200: 20, 429: 30 });
  });

  it('usage totals: 50 concurrent calls are each counted once', async () => {
    const account = await signUp();
    await times(PARALLEL, () => callAs(account.key, '/v1/workspaces'));
    const total = () =>
      withStore(async (store) =>
        (await store.usageDays.find({ account_id: account.id }).lean()).reduce((sum, row) => sum + row.api_calls, 0),
      );
    expect(await until('every call counted', total, (count) => count >= PARALLEL, 10_000)).toBe(PARALLEL);
  });

  it('idempotency: 50 concurrent sends with one key make one document, and the losers leave no parts behind', async () => {
    const sender = await sendingAccount();
    const attachments = [
      { filename: 'hours.csv', mime_type: 'text/csv', content: Buffer.from('day;hours\n1;8\n').toString('base64') },
    ];
    const body = {
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      idempotency_key: 'same-order',
      attachments,
    };
    const responses = await times(PARALLEL, () => callAs(sender.key, '/v1/documents', { method: 'POST', body }));
    expect(statusCounts(responses)).toEqual({ 202: 1, 200: PARALLEL - 1 });
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect((await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data).toHaveLength(1);
    const stored = await withStore(async (store) => ({
      attachments: await store.attachments.countDocuments({
        filename: 'hours.csv',
        document_id: { $in: [responses[0]!.body.id] },
      }),
      contents: await store.contents.countDocuments({ 'input.company_id': sender.companyId }),
    }));
    expect(stored).toEqual({ attachments: 1, contents: 1 });
  });

  it('last owner: owners demoting each other all at once never leave the workspace without one', async () => {
    const first = await signUp('owner');
    const { workspaceId } = await teamWorkspace(first, []);
    const owners = [first, ...(await times(PARALLEL - 1, () => signUp('owner')))];
    for (const owner of owners.slice(1)) {
      const added = await callAs(first.key, `/v1/workspaces/${workspaceId}/members`, {
        method: 'POST',
        body: { account_id: owner.id, role: 'owner' },
      });
      expect(added.status).toBe(201);
    }
    // Each owner demotes the next one; the last demotes the first: every demotion races another.
    const responses = await times(PARALLEL, (i) =>
      callAs(owners[i]!.key, `/v1/workspaces/${workspaceId}/members/${owners[(i + 1) % PARALLEL]!.id}`, {
        method: 'PATCH',
        body: { role: 'admin' },
      }),
    );
    const members = (await callAs(first.key, `/v1/workspaces/${workspaceId}/members`)).body.data as { role: string }[];
    const remaining = members.filter((member) => member.role === 'owner').length;
    expect(remaining).toBeGreaterThanOrEqual(1);
    expect(responses.every((response) => [200, 409, 403].includes(response.status))).toBe(true);
    expect(responses.filter((response) => response.status === 200).length).toBe(PARALLEL - remaining);
  });

  it('last owner: two owners demoting each other at once leave exactly one owner', async () => {
    const [a, b] = [await signUp('owner-a'), await signUp('owner-b')];
    const { workspaceId } = await teamWorkspace(a, []);
    await callAs(a.key, `/v1/workspaces/${workspaceId}/members`, {
      method: 'POST',
      body: { account_id: b.id, role: 'owner' },
    });
    const [aDemotesB, bDemotesA] = await Promise.all([
      callAs(a.key, `/v1/workspaces/${workspaceId}/members/${b.id}`, { method: 'PATCH', body: { role: 'member' } }),
      callAs(b.key, `/v1/workspaces/${workspaceId}/members/${a.id}`, { method: 'PATCH', body: { role: 'member' } }),
    ]);
    const members = (await callAs(a.key, `/v1/workspaces/${workspaceId}/members`)).body.data as { role: string }[];
    expect(members.filter((member) => member.role === 'owner')).toHaveLength(1);
    // One demotion wins; the other finds its caller no longer an owner (403) or the workspace down to its last (409).
    expect([aDemotesB.status, bDemotesA.status].filter((status) => status === 200)).toHaveLength(1);
    expect([409, 403]).toContain([aDemotesB.status, bDemotesA.status].find((status) => status !== 200));
  });

  it('key revocation: 50 concurrent revocations of one key answer 200 once and write one audit event', async () => {
    const account = await signUp();
    const created = await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { label: 'doomed' } });
    const prefix: string = created.body.prefix;
    const responses = await times(PARALLEL, () =>
      callAs(account.key, `/v1/account/keys/${encodeURIComponent(prefix)}`, { method: 'DELETE' }),
    );
    expect(statusCounts(responses)).toEqual({ 200: 1, 404: PARALLEL - 1 });
    const audit = (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit?limit=100`)).body.data as {
      action: string;
      target: { id: string };
    }[];
    expect(audit.filter((event) => event.action === 'api_key.revoked' && event.target.id === prefix)).toHaveLength(1);
  });

  it('company updates: concurrent changes of different fields all land, and none lands after a deletion', async () => {
    const account = await signUp();
    const company = (
      await callAs(account.key, '/v1/companies', { method: 'POST', body: { name: 'Racing BV', country: 'NL' } })
    ).body.id as string;
    for (let round = 0; round < 5; round += 1) {
      const fields = [
        { name: `Name ${round}` },
        { tax_id: `NL00000000${round}B01` },
        { email: `ap${round}@racing.example` },
        { company_registration_id: `R-${round}` },
      ];
      await Promise.all(
        fields.map((body) => callAs(account.key, `/v1/companies/${company}`, { method: 'PATCH', body })),
      );
      expect((await callAs(account.key, `/v1/companies/${company}`)).body).toMatchObject(Object.assign({}, ...fields));
    }
    const responses = await times(PARALLEL, (i) =>
      i === PARALLEL / 2
        ? callAs(account.key, `/v1/companies/${company}`, { method: 'DELETE' })
        : callAs(account.key, `/v1/companies/${company}`, { method: 'PATCH', body: { name: `Late ${i}` } }),
    );
    expect(responses[PARALLEL / 2]!.status).toBe(200);
    expect((await callAs(account.key, `/v1/companies/${company}`)).status).toBe(404);
    const row = await withStore((store) => store.companies.findById(company).lean());
    expect(row!.deleted_at).not.toBeNull();
    // Only a change that was answered 200 landed: a refused one (404, after the deletion) changed nothing.
    const landed = [
      'Name 4',
      ...responses.flatMap((response, i) => (i !== PARALLEL / 2 && response.status === 200 ? [`Late ${i}`] : [])),
    ];
    expect(landed).toContain(row!.name);
    expect(responses.every((response, i) => i === PARALLEL / 2 || [200, 404].includes(response.status))).toBe(true);
  });

  it('document status: racing moves and retried activities keep the status on the lifecycle table', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    const documentId: string = posted.body.id;
    await waitForStatus(sender.key, documentId, sender.companyId, ['delivered']);

    await withStore(async (store) => {
      // A delivered document: 50 late moves of every kind change nothing and record nothing.
      const late = await Promise.allSettled(
        Array.from({ length: PARALLEL }, (_, i) =>
          moveDocument(store, documentId, (['send', 'deliver', 'fail', 'retry'] as const)[i % 4]!, {
            error_message: 'late',
            attempt: 99,
          }),
        ),
      );
      for (const outcome of late) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(IllegalMoveError);
        else expect(outcome.value.moved).toBe(false);
      }
      expect((await store.documents.findById(documentId).lean())!.status).toBe('delivered');
      const types = (await store.events.find({ document_id: documentId }).sort({ _id: 1 }).lean()).map(
        (event) => event.type,
      );
      expect(types).toEqual(['document.queued', 'document.sending', 'document.delivered']);

      // A fresh document row: 50 concurrent "deliver" and "fail" moves after "send": exactly one final move.
      const id = `doc_${Date.now().toString(36).padStart(10, '0')}RACE${String(Math.random()).slice(2, 12)}`;
      const row = {
        ...(await store.documents.findById(documentId).lean())!,
        _id: id,
        status: 'queued' as const,
        idempotency_scope: `race:${id}`,
      };
      await store.documents.create(row);
      const sends = await Promise.allSettled(Array.from({ length: 10 }, () => moveDocument(store, id, 'send')));
      expect(sends.filter((outcome) => outcome.status === 'fulfilled' && outcome.value.moved)).toHaveLength(1);
      const finals = await Promise.allSettled(
        Array.from({ length: PARALLEL }, (_, i) =>
          moveDocument(store, id, i % 2 ? 'deliver' : 'fail', { error_message: 'x' }),
        ),
      );
      const winners = finals.filter((outcome) => outcome.status === 'fulfilled' && outcome.value.moved);
      expect(winners).toHaveLength(1);
      const final = (await store.documents.findById(id).lean())!.status;
      const events = (await store.events.find({ document_id: id }).sort({ _id: 1 }).lean()).map((event) => event.type);
      expect(events).toEqual(['document.sending', `document.${final}`]);
    });
  });
});
