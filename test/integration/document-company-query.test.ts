import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';

/**
 * Every per-document route takes the same query parameters: `company_id`, optional, checked as
 * `GET /v1/documents/{id}` checks it (a company the key cannot see is 403, a company whose document it
 * is not is 404). `/pdf` answered 400 "company_id is not a field" while `/ubl` and the document took it.
 */

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const attachment = {
  filename: 'timesheet.pdf',
  mime_type: 'application/pdf',
  content: Buffer.from('%PDF-1.7\n%%EOF\n').toString('base64'),
  description: 'Timesheet',
};

describe('the query of every per-document route', () => {
  let sender: Awaited<ReturnType<typeof sendingAccount>>;
  let otherAccountsCompany: string;
  let secondCompany: string;
  let documentId: string;
  let routes: string[];

  beforeAll(async () => {
    sender = await sendingAccount();
    otherAccountsCompany = (await sendingAccount()).companyId;
    // A second company of the same workspace: one the key sees, whose document this is not.
    const second = await callAs(sender.key, '/v1/companies', {
      method: 'POST',
      body: { ...belgianSeller, name: 'Second Seller SRL', address: { ...belgianSeller.address } },
    });
    expect(second.status).toBe(201);
    secondCompany = second.body.id as string;
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: sender.companyId, attachments: [attachment] },
    });
    expect(posted.status).toBe(202);
    documentId = posted.body.id as string;
    await waitForStatus(sender.key, documentId, sender.companyId, ['delivered']);
    const document = await callAs(sender.key, `/v1/documents/${documentId}?company_id=${sender.companyId}`);
    const attachmentId = (document.body.attachments as { id: string }[])[0]!.id;
    routes = [
      'history',
      'ubl',
      'attachments',
      `attachments/${attachmentId}`,
      'pdf',
      'html',
      'pdf?lang=de&',
      'html?lang=de&',
    ].map((route) => `/v1/documents/${documentId}/${route}`);
  }, 120_000);

  const withCompany = (route: string, companyId: string) =>
    `${route}${route.endsWith('&') ? '' : '?'}company_id=${companyId}`;
  const plain = (route: string) => route.replace(/[?&]$/, '');

  it("when company_id names the document's company, or is left out, then every route answers 200", async () => {
    for (const route of routes) {
      expect({ route, status: (await callAs(sender.key, withCompany(route, sender.companyId))).status }).toEqual({
        route,
        status: 200,
      });
      expect({ route, status: (await callAs(sender.key, plain(route))).status }).toEqual({ route, status: 200 });
    }
  }, 120_000);

  it('when company_id names a company the key cannot see, then every route answers 403 not_company_member, as the document itself does', async () => {
    expect((await callAs(sender.key, `/v1/documents/${documentId}?company_id=${otherAccountsCompany}`)).status).toBe(
      403,
    );
    for (const route of routes) {
      const answer = await callAs(sender.key, withCompany(route, otherAccountsCompany));
      expect({ route, status: answer.status, code: answer.body?.error?.code }).toEqual({
        route,
        status: 403,
        code: 'not_company_member',
      });
    }
  }, 60_000);

  it('when company_id names another company of the workspace, then every route answers 404 document_not_found, as the document itself does', async () => {
    expect((await callAs(sender.key, `/v1/documents/${documentId}?company_id=${secondCompany}`)).status).toBe(404);
    for (const route of routes) {
      const answer = await callAs(sender.key, withCompany(route, secondCompany));
      expect({ route, status: answer.status, code: answer.body?.error?.code }).toEqual({
        route,
        status: 404,
        code: 'document_not_found',
      });
    }
  }, 60_000);

  it('when company_id is not a company id, or another parameter is unknown, then it is 400, as on the document itself', async () => {
    for (const route of routes) {
      expect({ route, status: (await callAs(sender.key, withCompany(route, 'not-a-company'))).status }).toEqual({
        route,
        status: (await callAs(sender.key, `/v1/documents/${documentId}?company_id=not-a-company`)).status,
      });
      expect({
        route,
        status: (await callAs(sender.key, `${plain(route)}${route.includes('?') ? '&' : '?'}colour=red`)).status,
      }).toEqual({ route, status: 400 });
    }
  }, 60_000);
});
