import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { until } from '../support/until';

/**
 * GET /v1/documents across the workspace's companies, searched by number or the other party's name, by issue
 * dates and by unread: what the web app's Documents screen offers, through the public API.
 */

const invoice = { ...validFixtures[0]!.body };
const ids = (response: { body: { data: { id: string }[] } }) => response.body.data.map((document) => document.id);

describe('listing and searching documents', () => {
  it('when a workspace has sent and received documents in two companies, then one list holds them all, and q, issue dates, unread and a company narrow it', async () => {
    const sender = await sendingAccount();
    const buyer = await callAs(sender.key, '/v1/companies', { method: 'POST', body: belgianBuyerCompany });
    expect(buyer.status).toBe(201);
    const send = async (number: string, buyerName: string, issueDate: string) => {
      const posted = await callAs(sender.key, '/v1/documents', {
        method: 'POST',
        body: {
          ...invoice,
          company_id: sender.companyId,
          number,
          issue_date: issueDate,
          due_date: undefined,
          to: { ...(invoice.to as object), name: buyerName },
        },
      });
      expect(posted.status).toBe(202);
      return posted.body.id as string;
    };
    const alpha = await send('SEARCH-ALPHA-1', 'Globex Corporation', '2026-01-10');
    const beta = await send('SEARCH-BETA-2', 'Initech', '2026-03-15');
    const converted = convertDocument(documentInputSchema.parse(invoice), belgianSeller);
    if (!converted.ok) throw new Error('the fixture is refused');
    const inbound = await callApi('/v1/sandbox/inbound', {
      method: 'POST',
      headers: { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/xml' },
      body: converted.ubl,
    });
    expect(inbound.status).toBe(202);
    const received: string = inbound.body.id;

    const list = (query = '') => callAs(sender.key, `/v1/documents?limit=100${query}`);
    const all = await until(
      'every document listed',
      () => list(),
      (response) => response.body.data.length === 3,
    );
    expect(ids(all)).toEqual([received, beta, alpha]);
    expect(all.body.data.map((document: { counterparty: string | null }) => document.counterparty)).toEqual([
      belgianSeller.name,
      'Initech',
      'Globex Corporation',
    ]);

    expect(ids(await list('&q=alpha'))).toEqual([alpha]);
    expect(ids(await list('&q=iNiTeCh'))).toEqual([beta]);
    expect(ids(await list(`&q=${encodeURIComponent(belgianSeller.name.slice(2, 9))}`))).toEqual([received]);
    expect(ids(await list('&q=%28%5B.*'))).toEqual([]);
    expect(ids(await list('&issued_to=2026-02-01'))).toEqual([alpha]);
    expect(ids(await list('&issued_from=2026-03-15&issued_to=2026-03-15'))).toEqual([beta]);
    expect(ids(await list(`&company_id=${buyer.body.id}`))).toEqual([received]);
    expect(ids(await list('&direction=sent&q=search'))).toEqual([beta, alpha]);

    expect(ids(await list('&acknowledged=false'))).toEqual([received]);
    expect(
      (
        await callAs(sender.key, `/v1/documents/${received}/acknowledge?company_id=${buyer.body.id}`, {
          method: 'POST',
        })
      ).status,
    ).toBe(200);
    expect(ids(await list('&acknowledged=false'))).toEqual([]);
    expect(ids(await list('&acknowledged=true'))).toEqual([received]);

    const refused = await list('&issued_from=15-03-2026');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_field', param: 'issued_from' });
  });
});
