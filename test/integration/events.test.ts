import { validFixtures } from '../fixtures/documents';
import { callAs, signUp } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { until } from '../support/until';

/** The events feed: chronological, filterable, and a cursor that never skips or repeats. */

interface FeedPage {
  data: {
    id: string;
    type: string;
    created_at: string;
    data: { document_id: string; company_id: string; status: string };
  }[];
  has_more: boolean;
  next_cursor: string | null;
}

async function readAll(key: string, query = '', limit = 3): Promise<FeedPage['data']> {
  const seen: FeedPage['data'] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = (await callAs(key, `/v1/events?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`))
      .body as FeedPage;
    seen.push(...page.data);
    cursor = page.next_cursor;
    if (!page.has_more) return seen;
  }
}

describe('the events feed', () => {
  it('when documents are sent while the feed is read page by page, then every event appears exactly once, oldest first', async () => {
    const sender = await sendingAccount();
    const send = (n: number) =>
      callAs(sender.key, '/v1/documents', {
        method: 'POST',
        body: { ...validFixtures[0]!.body, company_id: sender.companyId, number: `EV-${n}` },
      });
    const ids: string[] = [];
    const seen: FeedPage['data'] = [];
    let cursor: string | null = null;
    // Pages are read while documents keep arriving and moving; the cursor is kept and resumed, as a client would.
    for (let round = 0; round < 12; round += 1) {
      ids.push(
        ...(await Promise.all([send(round * 2), send(round * 2 + 1)])).map((response) => response.body.id as string),
      );
      const page = (await callAs(sender.key, `/v1/events?limit=2${cursor ? `&cursor=${cursor}` : ''}`))
        .body as FeedPage;
      seen.push(...page.data);
      cursor = page.next_cursor;
      // Pacing: the next documents are sent while the feed is being read.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    for (const id of ids) await waitForStatus(sender.key, id, sender.companyId, ['delivered']);
    // The feed lists events once they are 2 s old, in order: once the last delivered one is listed, so is every earlier one.
    await until(
      'every delivered event in the feed',
      () => readAll(sender.key, '&type=document.delivered', 50),
      (events) => events.length === ids.length,
    );
    for (;;) {
      const page = (await callAs(sender.key, `/v1/events?limit=50${cursor ? `&cursor=${cursor}` : ''}`))
        .body as FeedPage;
      seen.push(...page.data);
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    const seenIds = seen.map((event) => event.id);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    expect([...seenIds].sort()).toEqual(seenIds);
    // queued, sending and delivered for each document: nothing skipped.
    expect(seen).toHaveLength(ids.length * 3);
    for (const id of ids) {
      expect(seen.filter((event) => event.data.document_id === id).map((event) => event.type)).toEqual([
        'document.queued',
        'document.sending',
        'document.delivered',
      ]);
    }
  }, 120_000);

  it('when filtered by type, company, document or time, then only those events come, in the webhook payload shape', async () => {
    const sender = await sendingAccount();
    const other = (
      await callAs(sender.key, '/v1/companies', {
        method: 'POST',
        body: { name: 'Other Co', country: 'BE', tax_id: 'BE0123456749', peppol_id: '0208:0123456749' },
      })
    ).body.id as string;
    // One after the other, so that the delivered events have a known order (two sends in flight finish in either).
    const first = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    await waitForStatus(sender.key, first.body.id, sender.companyId, ['delivered']);
    const second = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: other },
    });
    await waitForStatus(sender.key, second.body.id, other, ['delivered']);

    // The feed lists events once they are 2 s old, in order: the second delivered one is the newest of them all.
    const delivered = await until(
      'both delivered events in the feed',
      () => readAll(sender.key, '&type=document.delivered'),
      (events) => events.length === 2,
    );
    expect(delivered.map((event) => event.data.document_id)).toEqual([first.body.id, second.body.id]);
    expect(delivered[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'document.delivered',
      created_at: expect.any(String),
      data: expect.objectContaining({
        document_id: first.body.id,
        company_id: sender.companyId,
        status: 'delivered',
        number: 'INV-2026-0042',
        error_message: null,
      }),
    });
    expect((await readAll(sender.key, `&company_id=${other}`)).every((event) => event.data.company_id === other)).toBe(
      true,
    );
    expect((await readAll(sender.key, `&document_id=${first.body.id}`)).map((event) => event.type)).toEqual([
      'document.queued',
      'document.sending',
      'document.delivered',
    ]);
    const cutoff = delivered[1]!.created_at;
    expect(
      (await readAll(sender.key, `&type=document.delivered&from=${encodeURIComponent(cutoff)}`)).map(
        (event) => event.data.document_id,
      ),
    ).toEqual([second.body.id]);
    expect(
      (await readAll(sender.key, `&type=document.delivered&to=${encodeURIComponent(cutoff)}`)).map(
        (event) => event.data.document_id,
      ),
    ).toEqual([first.body.id]);
  }, 60_000);

  it('when another workspace reads the feed or names this company, then it sees none of these events', async () => {
    const sender = await sendingAccount();
    await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    // Once its own workspace's feed lists the document's event, another's would too, were it leaking.
    await until(
      "the document's event in its own workspace's feed",
      () => readAll(sender.key),
      (events) => events.length > 0,
    );
    const stranger = await signUp('stranger');
    expect((await callAs(stranger.key, '/v1/events')).body.data).toEqual([]);
    expect((await callAs(stranger.key, `/v1/events?company_id=${sender.companyId}`)).status).toBe(403);
    expect((await callAs(sender.key, '/v1/events?cursor=not-a-cursor')).status).toBe(400);
    // An empty filter is not "no filter": it names no document or company, so the feed is not handed out whole.
    expect((await callAs(sender.key, '/v1/events?document_id=')).body.error).toMatchObject({
      code: 'document_not_found',
    });
    const unknownCompany = await callAs(sender.key, '/v1/events?company_id=com_000000000000000000000000');
    expect((await callAs(sender.key, '/v1/events?company_id=')).body.error.code).toBe(unknownCompany.body.error.code);
  });
});
