import { createClient, verifyWebhook, type EinvoiceClient, type JsonBody, type Schema } from '../../sdk/src';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { fakeClientIp, uniqueEmail } from '../support/accounts';
import { liveSender } from '../support/documents';
import { clientMadeUbl } from '../support/official-examples';
import { ublTo } from '../support/receiving';
import { until } from '../support/until';
import { pdfText } from '../support/rendering';
import { sharedStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The SDK (sdk/src) driven against the running embedded stack as an
 * integrator would use it: sign up, a company, a webhook, a document sent
 * and delivered, listed, its UBL; the webhook delivery verified with
 * verifyWebhook; a received document read from the inbox and acknowledged;
 * a typed error.
 */

const standard = validFixtures.find((fixture) => fixture.name === 'standard rate S, one line')!.body;
const buyerPeppolId = (standard.to as { peppol_id: string }).peppol_id;

describe('the SDK against the running API', () => {
  const hooks = new WebhookReceiver();
  let client: EinvoiceClient;
  let companyId: string;

  beforeAll(async () => {
    await hooks.start();
    // Signup is limited per address; every test signs up from an address of its own.
    const ip = fakeClientIp();
    const anonymous = createClient({
      baseUrl: sharedStack().apiUrl,
      fetch: (request) => {
        request.headers.set('X-Forwarded-For', ip);
        return fetch(request);
      },
    });
    const account = await anonymous.signup({ email: uniqueEmail('sdk'), name: 'SDK' });
    client = createClient({ apiKey: account.api_key, baseUrl: sharedStack().apiUrl });
    companyId = (
      await client.companies.create({
        ...belgianSeller,
        address: { ...belgianSeller.address },
      } as JsonBody<'createCompany'>)
    ).id;
  });
  afterAll(() => hooks.stop());

  it('when a document is sent, then it is delivered, listed by the iterator, its UBL downloads, and the signed webhook verifies', async () => {
    const webhook = await client.webhooks.create({ url: hooks.url, events: ['document.delivered'] });
    expect(await client.companies.list()).toEqual([expect.objectContaining({ id: companyId })]);

    const document = { ...standard, company_id: companyId } as Schema<'DocumentRequest'>;
    expect(await client.documents.validate(document)).toMatchObject({ valid: true });
    const accepted = await client.documents.send(document);
    const delivered = await client.documents.outcome(accepted.id, companyId, { intervalMs: 200 });
    expect(delivered.status).toBe('delivered');

    const listed: string[] = [];
    for await (const summary of client.documents.list({ company_id: companyId, limit: 1 })) listed.push(summary.id);
    expect(listed).toEqual([accepted.id]);
    expect((await client.documents.history(accepted.id)).map((entry) => entry.step)).toContain('delivered');
    const ubl = await client.documents.ubl(accepted.id);
    expect(ubl).toContain(
      '<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>',
    );
    const pdf = await client.documents.pdf(accepted.id);
    expect(await pdfText(Buffer.from(pdf))).toContain(`Invoice number: ${document.number}`);
    expect(await client.documents.html(accepted.id, { lang: 'fr' })).toContain('Aperçu');

    const [request] = await hooks.waitFor(1);
    const event = verifyWebhook({ rawBody: request!.raw, headers: request!.headers, secrets: webhook.secret });
    expect(event).toMatchObject({
      type: 'document.delivered',
      data: { document_id: accepted.id, status: 'delivered' },
    });

    // After a rotation the delivery carries both signatures: the previous secret alone still verifies, so does the new one.
    const rotated = await client.webhooks.rotateSecret(webhook.id);
    await client.webhooks.test(webhook.id);
    const [, testRequest] = await hooks.waitFor(2);
    for (const secret of [webhook.secret, rotated.secret]) {
      expect(verifyWebhook({ rawBody: testRequest!.raw, headers: testRequest!.headers, secrets: [secret] }).type).toBe(
        'webhook.test',
      );
    }
    const deliveries: string[] = [];
    for await (const delivery of client.webhooks.deliveries(webhook.id)) deliveries.push(delivery.status);
    expect(deliveries).toEqual(['succeeded', 'succeeded']);
    const deadLetters = [];
    for await (const failed of client.webhooks.deliveries(webhook.id, { status: 'failed' })) deadLetters.push(failed);
    expect(deadLetters).toEqual([]);
  });

  it('when a document arrives for one of the companies, then the inbox iterator lists it until it is acknowledged', async () => {
    const buyer = await client.companies.create(belgianBuyerCompany);
    const arrived = await client.sandbox.receive(ublTo('standard rate S, one line', buyerPeppolId));
    const unread = async () => {
      const ids: string[] = [];
      for await (const received of client.inbox.list({ company_id: buyer.id, acknowledged: 'false' }))
        ids.push(received.id);
      return ids;
    };
    expect(await until('inbox', unread, (ids) => ids.length > 0)).toEqual([arrived.id]);
    await client.inbox.acknowledge(arrived.id, buyer.id);
    expect(await unread()).toEqual([]);
  });

  it("when a live key is given with the local stack's live host as liveBaseUrl, then the client acts in the live environment; a test key with the same options stays on the sandbox host", async () => {
    const sender = await liveSender();
    // The local stack serves its live host as localhost, a name Node resolves (live.localhost it does not).
    const options = {
      baseUrl: sharedStack().apiUrl,
      liveBaseUrl: sharedStack().apiUrl.replace('127.0.0.1', 'localhost'),
    };
    const live = createClient({ ...options, apiKey: sender.liveKey });
    const listed: unknown[] = [];
    for await (const document of live.documents.list({ company_id: sender.companyId })) listed.push(document);
    expect(listed).toEqual([]);
    expect((await live.companies.get(sender.companyId)).id).toBe(sender.companyId);
    expect((await createClient({ ...options, apiKey: sender.key }).companies.get(sender.companyId)).id).toBe(
      sender.companyId,
    );
    await expect(
      createClient({ baseUrl: options.baseUrl, apiKey: sender.liveKey }).companies.get(sender.companyId),
    ).rejects.toMatchObject({ status: 403, code: 'wrong_environment' });
  });

  it('when the API refuses, then the error is an ApiError with its code, status and request id', async () => {
    const refused = await client.documents.get('doc_doesnotexist', companyId).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'document_not_found',
      requestId: expect.any(String),
    });
    const invalid = await client.documents
      .send({ company_id: companyId } as Schema<'DocumentRequest'>)
      .catch((err: unknown) => err);
    expect(invalid).toMatchObject({
      status: 422,
      type: expect.any(String),
      code: 'document_invalid',
      details: { violations: expect.any(Array) },
    });
  });

  it('when every attempt of a delivery fails, then the dead-letter list shows it, a redelivery sends it again, and the webhook is changed and deleted', async () => {
    // The redelivery's attempt is answered late: the delivery is still underway when it is redelivered again (409).
    const failing = new WebhookReceiver().answer(...Array.from({ length: 5 }, () => ({ status: 500 })), {
      delayMs: 3_000,
      status: 200,
    });
    await failing.start();
    try {
      const webhook = await client.webhooks.create({ url: failing.url, events: ['document.failed'] });
      await client.webhooks.test(webhook.id);
      const deadLetters = async () => {
        const failed = [];
        for await (const delivery of client.webhooks.deliveries(webhook.id, { status: 'failed' }))
          failed.push(delivery);
        return failed;
      };
      const [failed] = await until('the dead-letter list', deadLetters, (list) => list.length === 1);
      expect(await client.webhooks.redeliver(webhook.id, failed!.id)).toMatchObject({ id: failed!.id });
      await expect(client.webhooks.redeliver(webhook.id, failed!.id)).rejects.toMatchObject({
        status: 409,
        code: 'delivery_not_redeliverable',
      });
      // The redelivery is a workflow of its own; on a loaded machine (a CI run beside other work) its one attempt took longer than 30 s to arrive.
      const arrived = await failing.waitFor(6, 60_000);
      expect(
        verifyWebhook({ rawBody: arrived[5]!.raw, headers: arrived[5]!.headers, secrets: webhook.secret }).type,
      ).toBe('webhook.test');

      expect(await client.webhooks.update(webhook.id, { events: ['*'], enabled: false })).toMatchObject({
        events: ['*'],
        enabled: false,
      });
      expect((await client.webhooks.list()).map((listed) => listed.id)).toContain(webhook.id);
      await client.webhooks.delete(webhook.id);
      await expect(client.webhooks.get(webhook.id)).rejects.toMatchObject({ status: 404, code: 'webhook_not_found' });
    } finally {
      await failing.stop();
    }
  }, 90_000);

  it('when a batch is sent, then each entry is answered on its own and its events reach the feed iterator', async () => {
    const entry = (number: string) =>
      ({ ...standard, company_id: companyId, number, idempotency_key: `sdk-${number}` }) as Schema<'DocumentRequest'>;
    const answers = await client.documents.sendBatch([entry('B-1'), entry('B-2')]);
    const ids = answers.map((answer) => ('id' in answer ? answer.id : JSON.stringify(answer.error)));
    expect(ids).toEqual([expect.stringMatching(/^doc_/), expect.stringMatching(/^doc_/)]);
    const queued = async () => {
      const seen: string[] = [];
      for await (const event of client.events.list({ type: 'document.queued', company_id: companyId, limit: 1 }))
        if ('document_id' in event.data && event.data.document_id) seen.push(event.data.document_id);
      return seen;
    };
    expect(await until('the events feed', queued, (seen) => ids.every((id) => seen.includes(id)))).toEqual(
      expect.arrayContaining(ids),
    );
  });

  it('when a UBL document the client made is sent, then it is delivered as sent, its key answers it again, and another seller is an ApiError', async () => {
    const xml = clientMadeUbl('peppol-bis/base-example.xml', belgianSeller.peppol_id!, uniqueEmail('sdk-ubl'));
    const accepted = await client.documents.sendUbl(xml, { companyId, idempotencyKey: 'sdk-ubl-1' });
    expect(await client.documents.outcome(accepted.id, companyId, { intervalMs: 200 })).toMatchObject({
      status: 'delivered',
      number: 'Snippet1',
    });
    expect(await client.documents.ubl(accepted.id)).toBe(xml);
    expect((await client.documents.sendUbl(xml, { companyId, idempotencyKey: 'sdk-ubl-1' })).id).toBe(accepted.id);

    const foreign = clientMadeUbl('peppol-bis/base-example.xml', belgianBuyerCompany.peppol_id, uniqueEmail('sdk-ubl'));
    const refused = await client.documents.sendUbl(foreign, { companyId }).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      name: 'ApiError',
      status: 422,
      code: 'seller_mismatch',
      details: { seller_endpoint_id: belgianBuyerCompany.peppol_id },
    });
  });
});
