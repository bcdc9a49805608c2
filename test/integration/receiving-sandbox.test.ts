import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { newSortableId } from '../../domain/ids';
import { verifySignatureV2 } from '../../domain/webhooks';
import { createLogger } from '../../platform/logger';
import { reconcileReceived } from '../../services/receiving/intake';
import { writeCii } from '../../domain/cii/write';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { EVERY_TERM } from '../support/every-term';
import { officialExamples } from '../support/official-examples';
import { pdfText } from '../support/rendering';
import { callAs, withStore, type TestAccount } from '../support/accounts';
import { LIVE, liveSender, sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { until } from '../support/until';
import { sharedTemporalClient } from '../support/temporal';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Receiving in the sandbox: a UBL document posted to POST /v1/sandbox/inbound
 * goes through the receive workflow a document arriving by AS4 takes (stored,
 * validated by the official rules, read into the JSON view, filed, announced)
 * and lands in the company's inbox.
 */

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const converted = convertDocument(documentInputSchema.parse(fixture), belgianSeller);
if (!converted.ok) throw new Error('the standard fixture is refused');
const ubl = converted.ubl;
const buyerPeppolId = (fixture.to as { peppol_id: string }).peppol_id;
/** An amount as the UBL states it. */
const stated = (element: string) => new RegExp(`<cbc:${element}[^>]*>([^<]+)</cbc:${element}>`).exec(ubl)![1];

const postInbound = (key: string, xml: string, host?: string) =>
  callApi('/v1/sandbox/inbound', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/xml', ...(host && { Host: host }) },
    body: xml,
  });

/** An account whose workspace has a company that is the fixture's buyer. */
async function buyerAccount(): Promise<TestAccount & { companyId: string; buyerId: string }> {
  const account = await sendingAccount();
  const buyer = await callAs(account.key, '/v1/companies', {
    method: 'POST',
    body: belgianBuyerCompany,
  });
  if (buyer.status !== 201) throw new Error(`buyer company: ${buyer.text}`);
  return { ...account, buyerId: buyer.body.id };
}

const temporal = sharedTemporalClient();

/** A message the intake stored a minute ago but whose receive workflow never started (it died in between). */
async function storedButNotDispatched(
  account: TestAccount & { buyerId: string },
  payload: string,
  label: string,
): Promise<string> {
  const receivedAt = Date.now() - 60_000;
  const documentId = newSortableId('document', receivedAt);
  await withStore((store) =>
    store.receivedMessages.create({
      _id: documentId,
      message_key: `sandbox:${documentId}`,
      message_id: `${documentId}@${label}`,
      source: 'sandbox',
      environment: 'sandbox',
      company_id: account.buyerId,
      workspace_id: account.workspaceId,
      sender_id: belgianSeller.peppol_id,
      receiver_id: buyerPeppolId,
      payload: Buffer.from(payload),
      received_at: new Date(receivedAt),
      dispatched: false,
    }),
  );
  return documentId;
}

/** An account of the fixture's buyer, as buyerAccount makes it. */
type BuyerAccount = Awaited<ReturnType<typeof buyerAccount>>;

/** The posted invoice is filed: in the inbox not yet acknowledged, with its totals and JSON view, and its bytes as posted. */
async function expectFiledWithItsTotalsAndBytes(account: BuyerAccount, id: string): Promise<void> {
  const inbox = await until(
    'the inbox',
    () => callAs(account.key, `/v1/inbox?company_id=${account.buyerId}&acknowledged=false`),
    (response) => response.body.data.some((entry: { id: string }) => entry.id === id),
  );
  expect(inbox.body.data.find((entry: { id: string }) => entry.id === id)).toMatchObject({
    direction: 'received',
    status: 'received',
    type: 'invoice',
    number: fixture.number,
    payable: stated('PayableAmount'),
  });

  const document = await callAs(account.key, `/v1/documents/${id}?company_id=${account.buyerId}`);
  expect(document.body).toMatchObject({
    direction: 'received',
    environment: 'sandbox',
    totals: {
      payable: stated('PayableAmount'),
      tax_exclusive: stated('TaxExclusiveAmount'),
      tax_inclusive: stated('TaxInclusiveAmount'),
      tax: stated('TaxAmount'),
    },
    received: {
      source: 'sandbox',
      sender_id: belgianSeller.peppol_id,
      receiver_id: buyerPeppolId,
      acknowledged_at: null,
      json_view_problem: null,
      validation: { valid: true, errors: [] },
    },
  });
  expect(document.body.received.json_view).toMatchObject({
    number: fixture.number,
    to: { peppol_id: buyerPeppolId },
  });

  const bytes = await callAs(account.key, `/v1/documents/${id}/ubl`);
  expect(bytes.text).toBe(ubl);
}

/** Announced by one webhook, signed with the endpoint's secret. */
async function expectAnnouncedBySignedWebhook(
  hooks: WebhookReceiver,
  secret: string,
  account: BuyerAccount,
  id: string,
): Promise<void> {
  const [delivery] = await hooks.waitFor(1);
  expect(
    verifySignatureV2(
      String(delivery!.headers['x-peppol-signature-v2']),
      delivery!.raw,
      secret,
      Math.floor(Date.now() / 1000),
    ),
  ).toBe(true);
  expect(JSON.parse(delivery!.raw)).toMatchObject({
    type: 'document.received',
    data: { document_id: id, company_id: account.buyerId, direction: 'received', json_view: true },
  });
}

/** Acknowledging takes it off the pull queue (onto the acknowledged one); a sent document cannot be acknowledged. */
async function expectAcknowledgingTakesItOffTheQueue(account: BuyerAccount, id: string): Promise<void> {
  const acknowledged = await callAs(account.key, `/v1/documents/${id}/acknowledge?company_id=${account.buyerId}`, {
    method: 'POST',
  });
  expect(acknowledged.status).toBe(200);
  expect(acknowledged.body.received.acknowledged_at).toEqual(expect.any(String));
  const pending = await callAs(account.key, `/v1/inbox?company_id=${account.buyerId}&acknowledged=false`);
  expect(pending.body.data.map((entry: { id: string }) => entry.id)).not.toContain(id);
  const done = await callAs(account.key, `/v1/inbox?company_id=${account.buyerId}&acknowledged=true`);
  expect(done.body.data.map((entry: { id: string }) => entry.id)).toContain(id);
  // Sent documents are not in the inbox, and a sent one cannot be acknowledged.
  const sent = await callAs(account.key, '/v1/documents', {
    method: 'POST',
    body: { ...fixture, company_id: account.companyId },
  });
  const refused = await callAs(
    account.key,
    `/v1/documents/${sent.body.id}/acknowledge?company_id=${account.companyId}`,
    { method: 'POST' },
  );
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('not_received_document');
}

describe('sandbox inbound', () => {
  const hooks = new WebhookReceiver();
  beforeAll(() => hooks.start());
  afterAll(() => hooks.stop());

  it('when a test key posts a UBL invoice for one of its companies, then it is validated, converted, in the inbox with its bytes and totals, announced by a signed webhook, and acknowledging takes it off the pull queue', async () => {
    const account = await buyerAccount();
    const webhook = await callAs(account.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: hooks.url, events: ['document.received'] },
    });
    expect(webhook.status).toBe(201);

    const posted = await postInbound(account.key, ubl);
    expect(posted.status).toBe(202);
    expect(posted.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      direction: 'received',
      company_id: account.buyerId,
      status: 'receiving',
    });
    const id: string = posted.body.id;

    await expectFiledWithItsTotalsAndBytes(account, id);
    await expectAnnouncedBySignedWebhook(hooks, webhook.body.secret, account, id);
    await expectAcknowledgingTakesItOffTheQueue(account, id);
  });

  it('when a test key posts a CII invoice for one of its companies, then the CII rules judge it, it is filed with its JSON view and stated totals, kept as it came, and read as UBL, PDF and HTML', async () => {
    const account = await buyerAccount();
    const cii = writeCii({
      ...EVERY_TERM,
      from: { ...EVERY_TERM.from, peppol_id: belgianSeller.peppol_id! },
      to: { ...EVERY_TERM.to, peppol_id: buyerPeppolId },
    });
    const posted = await postInbound(account.key, cii);
    expect(posted.status).toBe(202);
    const id: string = posted.body.id;
    const document = await until(
      'the document filed',
      () => callAs(account.key, `/v1/documents/${id}?company_id=${account.buyerId}`),
      (response) => response.body.status === 'received',
    );
    expect(document.body).toMatchObject({
      type: 'invoice',
      number: EVERY_TERM.number,
      rule_set: expect.stringMatching(/^eu\.cen\.en16931:cii:/),
      totals: { payable: '150.05', tax: '19.95', prepaid: '14.95', payable_rounding: '0.05' },
      received: {
        sender_id: belgianSeller.peppol_id,
        receiver_id: buyerPeppolId,
        json_view_problem: null,
        validation: { valid: true, errors: [] },
      },
    });
    expect(document.body.received.json_view).toMatchObject({
      number: EVERY_TERM.number,
      lines: [expect.objectContaining({ tax_category: 'S' }), expect.objectContaining({ tax_category: 'AE' })],
    });

    expect((await callAs(account.key, `/v1/documents/${id}/cii`)).text).toBe(cii);
    const ubl = (await callAs(account.key, `/v1/documents/${id}/ubl`)).text;
    expect(ubl).toContain('<cbc:PayableAmount currencyID="EUR">150.05</cbc:PayableAmount>');
    const pdf = await callAs(account.key, `/v1/documents/${id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(await pdfText(pdf.bytes)).toContain(EVERY_TERM.number);
    const html = await callAs(account.key, `/v1/documents/${id}/html`);
    expect([html.status, html.text.includes(EVERY_TERM.number)]).toEqual([200, true]);
  });

  it('when a test key posts a PINT EU invoice, then the PINT EU rules judge it (routed by its CustomizationID) and it is filed with its JSON view', async () => {
    const account = await buyerAccount();
    const [scheme, id] = buyerPeppolId.split(':') as [string, string];
    const pint = officialExamples('peppol-bis')
      .find(({ name }) => name === 'peppol-bis/base-example.xml')!
      .xml.replace(/<cbc:CustomizationID>[^<]*</, '<cbc:CustomizationID>urn:peppol:pint:billing-1@eu-1<')
      .replace(/<cbc:ProfileID>[^<]*</, '<cbc:ProfileID>urn:peppol:bis:billing<')
      .replace(
        /(<cac:AccountingCustomerParty>\s*<cac:Party>\s*)<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/,
        `$1<cbc:EndpointID schemeID="${scheme}">${id}</cbc:EndpointID>`,
      );
    const posted = await postInbound(account.key, pint);
    expect(posted.status).toBe(202);
    const document = await until(
      'the document filed',
      () => callAs(account.key, `/v1/documents/${posted.body.id}?company_id=${account.buyerId}`),
      (response) => response.body.status === 'received',
    );
    expect(document.body).toMatchObject({
      rule_set: expect.stringMatching(/^org\.peppol\.pint\.eu:invoice:/),
      received: { validation: { valid: true }, json_view_problem: null },
    });
    expect(document.body.received.json_view).toMatchObject({ number: 'Snippet1' });
  });

  it('when the buyer is none of the workspace\u2019s companies, then 422 names the id found; a live key is refused with 403', async () => {
    const account = await sendingAccount();
    const unknown = await postInbound(account.key, ubl);
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'recipient_not_found', details: { receiver_id: buyerPeppolId } });
    expect(unknown.body.error.message).toContain(buyerPeppolId);

    const live = await liveSender();
    const refused = await postInbound(live.liveKey, ubl, LIVE);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('sandbox_only');
  });

  it('when the body is not a routable UBL document, then it is refused naming why', async () => {
    const account = await buyerAccount();
    const malformed = await postInbound(account.key, '<Invoice>');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_xml');
    const noBuyerAddress = await postInbound(
      account.key,
      ubl.replace(
        /<cac:AccountingCustomerParty>\s*<cac:Party>\s*<cbc:EndpointID[^>]*>[^<]*<\/cbc:EndpointID>/,
        '<cac:AccountingCustomerParty><cac:Party>',
      ),
    );
    expect(noBuyerAddress.status).toBe(422);
    expect(noBuyerAddress.body.error).toMatchObject({ code: 'ubl_not_routable' });
    expect(noBuyerAddress.body.error.message).toContain('buyer');
  });

  it('when a stored message never had its receive workflow started (the intake died after storing it), then the reconciler starts it and the document is filed once', async () => {
    const account = await buyerAccount();
    const documentId = await storedButNotDispatched(account, ubl, 'orphan');
    // The reconciler starts it: this call, or the schedule's run of the same function when that came first
    // (it runs every minute on the shared stack), in which case this one finds nothing left to start.
    await withStore((store) =>
      reconcileReceived({ store, temporal: temporal(), logger: createLogger('silent', 'test') }),
    );
    const document = await until(
      'the orphan filed',
      () => callAs(account.key, `/v1/documents/${documentId}?company_id=${account.buyerId}`),
      (response) => response.status === 200,
    );
    expect(document.body).toMatchObject({
      direction: 'received',
      received: { as4_message_id: `${documentId}@orphan` },
    });
    expect(
      await withStore((store) => store.receivedMessages.countDocuments({ _id: documentId, dispatched: true })),
    ).toBe(1);
  });

  it('when a received document is of a type the JSON view does not cover, then it is kept with its bytes, typed other, and announced as such', async () => {
    const account = await buyerAccount();
    const order =
      '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"><cbc:ID>PO-1</cbc:ID></Order>';
    const documentId = await storedButNotDispatched(account, order, 'order');
    await withStore((store) =>
      reconcileReceived({ store, temporal: temporal(), logger: createLogger('silent', 'test') }),
    );
    const document = await until(
      'the order filed',
      () => callAs(account.key, `/v1/documents/${documentId}?company_id=${account.buyerId}`),
      (response) => response.status === 200,
    );
    expect(document.body).toMatchObject({
      direction: 'received',
      type: 'other',
      totals: null,
      received: { json_view: null, json_view_problem: expect.stringContaining('Order') },
    });
    expect((await callAs(account.key, `/v1/documents/${documentId}/ubl`)).text).toBe(order);
    const events = await until(
      'its event',
      () => callAs(account.key, `/v1/events?document_id=${documentId}`),
      (response) => response.body.data?.length === 1,
      10_000,
    );
    expect(events.body.data[0]).toMatchObject({ type: 'document.received', data: { type: 'other', json_view: false } });
  });
});
