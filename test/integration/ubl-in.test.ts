import { randomBytes } from 'node:crypto';

import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { attachmentText, inboxFor, LIVE, liveSender, sendingAccount, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { clientMadeUbl, withSellerIdentity, type StatedSellerIdentity } from '../support/official-examples';
import { ops } from '../support/ops';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * UBL in (issue 35): a UBL Invoice or CreditNote the client made, posted as it is, becomes a document as a JSON
 * one does (idempotency, workflow, events, webhooks, history), and is sent byte for byte as posted.
 */

const SELLER = '0208:0123456749'; // The peppol_id of the company sendingAccount() makes.
const recipient = () => `ubl-buyer-${randomBytes(5).toString('hex')}@example.com`;

type Sender = Awaited<ReturnType<typeof sendingAccount>>;

interface PostOptions {
  companyId?: string | null;
  headers?: Record<string, string>;
  /** A live key, posted on the live host. */
  liveKey?: string;
}

const postUbl = (sender: Sender, xml: string | Buffer, options: PostOptions = {}) => {
  const companyId = options.companyId === undefined ? sender.companyId : options.companyId;
  return callApi(`/v1/documents${companyId ? `?company_id=${companyId}` : ''}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.liveKey ?? sender.key}`,
      'Content-Type': 'application/xml',
      ...(options.liveKey && { Host: LIVE }),
      ...options.headers,
    },
    body: xml,
  });
};

const documentsOf = async (sender: Sender) =>
  (await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data as unknown[];

describe('UBL documents the client made', () => {
  const hooks = new WebhookReceiver();
  beforeAll(() => hooks.start());
  afterAll(() => hooks.stop());

  it('when a client-made invoice is posted as XML, then it is delivered byte for byte, with events, webhooks and history, and its key answers the same document', async () => {
    const sender = await sendingAccount();
    const webhook = await callAs(sender.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: hooks.url, events: ['document.queued', 'document.delivered'] },
    });
    expect(webhook.status).toBe(201);
    const email = recipient();
    const xml = clientMadeUbl('peppol-bis/base-example.xml', SELLER, email);

    const posted = await postUbl(sender, xml, { headers: { 'Idempotency-Key': 'ubl-1' } });
    expect(posted.status).toBe(202);
    // Its warnings are those of its JSON view, as for a JSON document (the example's 25 % is no British rate).
    expect(posted.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      url: expect.stringContaining(posted.body.id),
      status: 'queued',
      warnings: [expect.objectContaining({ code: 'vat_rate_unusual', path: 'lines[0].tax_rate' })],
    });
    const { id } = posted.body;
    const delivered = await waitForStatus(sender.key, id, sender.companyId, ['delivered', 'failed']);
    expect(delivered).toMatchObject({
      status: 'delivered',
      type: 'invoice',
      number: 'Snippet1',
      recipient_email: email,
      totals: { payable: '1656.25', tax: '331.25' },
    });

    const ubl = await callAs(sender.key, `/v1/documents/${id}/ubl`);
    expect(ubl.bytes.equals(Buffer.from(xml))).toBe(true);
    const [message] = (await inboxFor(email)).filter((candidate) => candidate.messageId === `${id}@einvoice.localhost`);
    expect(await attachmentText(message!, message!.attachments![0]!.generatedFileName)).toBe(xml);

    const history = await callAs(sender.key, `/v1/documents/${id}/history`);
    expect(history.body.map((entry: { step: string }) => entry.step)).toEqual([
      'created',
      'validated',
      'queued',
      'sending',
      'delivered',
    ]);
    const arrived = await hooks.waitFor(2);
    expect(
      arrived.map((request) => [request.headers['x-peppol-event'], JSON.parse(request.raw).data.document_id]).sort(),
    ).toEqual([
      ['document.delivered', id],
      ['document.queued', id],
    ]);

    const again = await postUbl(sender, xml, { headers: { 'Idempotency-Key': 'ubl-1' } });
    expect([again.status, again.body.id]).toEqual([200, id]);
    expect(await documentsOf(sender)).toHaveLength(1);
  });

  it('when a client-made invoice carries what the official rules warn of, then it is sent all the same, and the document lists each warning with its rule id', async () => {
    const sender = await sendingAccount();
    const xml = clientMadeUbl('peppol-bis/base-example.xml', SELLER, recipient()).replace(
      '<cbc:ID>Snippet1</cbc:ID>',
      '<cbc:ID>Snippet1</cbc:ID>\n  <cbc:UUID>6f1c2b4e-1d2a-4c3b-9e8f-0a1b2c3d4e5f</cbc:UUID>',
    );
    const posted = await postUbl(sender, xml);
    expect(posted.status).toBe(202);
    const delivered = await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered', 'failed']);
    expect(delivered.status).toBe('delivered');
    expect(delivered.official_warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          rule: expect.stringMatching(/^UBL-CR-\d+$/),
          severity: 'warning',
          message: expect.stringContaining('UUID'),
        }),
      ]),
    );
    // A document the rules warn nothing of lists none.
    const plain = await postUbl(sender, clientMadeUbl('peppol-bis/base-example.xml', SELLER, recipient()));
    expect(
      (await waitForStatus(sender.key, plain.body.id, sender.companyId, ['delivered', 'failed'])).official_warnings,
    ).toEqual([]);
  });

  it("when the UBL's seller is not the company, then 422 seller_mismatch names both, and nothing is stored", async () => {
    const sender = await sendingAccount();
    const xml = clientMadeUbl('peppol-bis/base-example.xml', '0208:0987654394', recipient());
    const refused = await postUbl(sender, xml);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'seller_mismatch',
      param: 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID',
      details: { seller_endpoint_id: '0208:0987654394', company_id: sender.companyId, company_peppol_id: SELLER },
    });
    expect(refused.body.error.message).toEqual(expect.stringContaining('0208:0987654394'));
    expect(refused.body.error.message).toEqual(expect.stringContaining(SELLER));
    expect(await documentsOf(sender)).toEqual([]);
  });

  it('when a UBL carries what a JSON document could not (processing instructions, a schema location, a note past the JSON bound, an address with spaces, currency XXX), then 422 names each and nothing is stored; UTF-16 is 400 saying so', async () => {
    const sender = await sendingAccount();
    const xml = clientMadeUbl('peppol-bis/base-example.xml', SELLER, recipient());
    const refusedAt = async (changed: string) => {
      const refused = await postUbl(sender, changed);
      expect([refused.status, refused.body.error.code]).toEqual([422, 'document_invalid']);
      return (refused.body.error.details.violations as { path: string }[]).map((violation) => violation.path);
    };
    expect(
      await refusedAt(
        xml.replace('<Invoice', '<?php echo 1; ?><?xml-stylesheet href="https://elsewhere.example/x.xsl"?><Invoice'),
      ),
    ).toEqual(["processing-instruction('php')", "processing-instruction('xml-stylesheet')"]);
    expect(
      await refusedAt(
        xml.replace(
          '<Invoice ',
          '<Invoice xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:x https://elsewhere.example/x.xsd" ',
        ),
      ),
    ).toEqual(['Invoice/@xsi:schemaLocation']);
    // The shared stack takes bodies up to 256 KiB: a note far past the bound, within it (the unit test holds 6 MiB).
    expect(
      await refusedAt(xml.replace(/<cbc:Note>[^<]*<\/cbc:Note>/, `<cbc:Note>${'x'.repeat(200 * 1024)}</cbc:Note>`)),
    ).toEqual(['cac:PaymentTerms/cbc:Note']);
    expect(
      await refusedAt(
        xml.replace('<cbc:EndpointID schemeID="0208">0123456749<', '<cbc:EndpointID schemeID="0208">0123456749 <'),
      ),
    ).toEqual(['cac:AccountingSupplierParty/cac:Party/cbc:EndpointID']);
    expect(
      await refusedAt(
        xml
          .replace(/currencyID="EUR"/g, 'currencyID="XXX"')
          .replace('<cbc:DocumentCurrencyCode>EUR', '<cbc:DocumentCurrencyCode>XXX'),
      ),
    ).toEqual(['cbc:DocumentCurrencyCode']);

    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(xml.replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le'),
    ]);
    const refused = await postUbl(sender, utf16);
    expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_xml']);
    expect(refused.body.error.message).toBe(
      'The body is encoded as UTF-16; Peppol BIS Billing 3.0 documents are UTF-8 only: re-encode it as UTF-8 and send it again.',
    );
    expect(await documentsOf(sender)).toEqual([]);
  });

  it('when the official rules refuse the UBL, then 422 document_invalid lists their fatal findings, and nothing is stored or sent', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    // The amount due no longer follows from the totals: BR-CO-16.
    const xml = clientMadeUbl('peppol-bis/base-example.xml', SELLER, email).replace(
      '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>',
      '<cbc:PayableAmount currencyID="EUR">1000.00</cbc:PayableAmount>',
    );
    const refused = await postUbl(sender, xml, { headers: { 'Idempotency-Key': 'ubl-bad' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'document_invalid',
      details: { rule_set: expect.stringMatching(/^eu\.peppol\.bis3:/) },
    });
    expect(refused.body.error.details.violations).toContainEqual({
      path: expect.stringContaining('LegalMonetaryTotal'),
      rule: 'BR-CO-16',
      message: expect.any(String),
    });
    expect(await documentsOf(sender)).toEqual([]);
    // Nothing holds the key either: the corrected document is accepted under it.
    const corrected = await postUbl(sender, clientMadeUbl('peppol-bis/base-example.xml', SELLER, email), {
      headers: { 'Idempotency-Key': 'ubl-bad' },
    });
    expect(corrected.status).toBe(202);
  });

  it('when a live UBL is refused by the official rules, then nothing is charged; when it passes, then it is charged as a JSON document is', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '1.00');
    const balance = async () =>
      (await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`)).body.credit_balance as string;
    // A live UBL states the company's verified identity (sender-identity.test.ts refuses any other).
    const xml = withSellerIdentity(
      clientMadeUbl('peppol-bis/base-example.xml', SELLER, recipient()),
      belgianSeller as StatedSellerIdentity,
    );
    const refused = await postUbl(
      sender,
      xml.replace(
        '<cbc:PayableAmount currencyID="EUR">1656.25</cbc:PayableAmount>',
        '<cbc:PayableAmount currencyID="EUR">1.00</cbc:PayableAmount>',
      ),
      { liveKey: sender.liveKey },
    );
    expect([refused.status, refused.body.error.code]).toEqual([422, 'document_invalid']);
    expect(await balance()).toBe('1.00');
    const accepted = await postUbl(sender, xml, { liveKey: sender.liveKey });
    expect(accepted.status).toBe(202);
    expect(await balance()).toBe('0.90');
  });

  it('when the body is not XML, not an Invoice or CreditNote, or names no company, then the matching error says so', async () => {
    const sender = await sendingAccount();
    const xml = clientMadeUbl('peppol-bis/base-example.xml', SELLER, recipient());
    const answers = await Promise.all([
      postUbl(sender, '<Invoice><cbc:ID>'),
      postUbl(sender, '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>'),
      postUbl(sender, xml, { companyId: null }),
      postUbl(sender, `${'<a>'.repeat(70)}${'</a>'.repeat(70)}`),
      callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`, {
        method: 'POST',
        body: { ...validFixtures[0]!.body, company_id: sender.companyId },
      }),
    ]);
    expect(answers.map((answer) => [answer.status, answer.body.error.code])).toEqual([
      [400, 'invalid_xml'],
      [422, 'not_ubl_document'],
      [400, 'missing_field'],
      [422, 'xml_too_complex'],
      [400, 'invalid_field'],
    ]);
    expect(await documentsOf(sender)).toEqual([]);
  });

  it('when a batch holds a UBL entry beside a JSON one, then each is answered in order and both are delivered', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    const xml = clientMadeUbl('peppol-bis/base-creditnote-correction.xml', SELLER, email);
    const json = {
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      to: { ...(validFixtures[0]!.body.to as object), email },
    };
    const stranger = clientMadeUbl('peppol-bis/base-example.xml', '0208:0987654394', email);
    const batch = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: [
        { company_id: sender.companyId, ubl: Buffer.from(xml).toString('base64'), idempotency_key: 'batch-ubl' },
        json,
        { company_id: sender.companyId, ubl: Buffer.from(stranger).toString('base64') },
        { company_id: sender.companyId, ubl: 'not base64!' },
      ],
    });
    expect(batch.status).toBe(202);
    expect(batch.body).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^doc_/), status: 'queued' }),
      expect.objectContaining({ id: expect.stringMatching(/^doc_/), status: 'queued' }),
      { error: expect.objectContaining({ code: 'seller_mismatch' }) },
      { error: expect.objectContaining({ code: 'document_invalid', param: 'ubl' }) },
    ]);
    const [ublDocument, jsonDocument] = batch.body as { id: string }[];
    for (const document of [ublDocument!, jsonDocument!])
      await waitForStatus(sender.key, document.id, sender.companyId, ['delivered']);
    expect((await callAs(sender.key, `/v1/documents/${ublDocument!.id}/ubl`)).bytes.equals(Buffer.from(xml))).toBe(
      true,
    );
    expect(await waitForStatus(sender.key, ublDocument!.id, sender.companyId, ['delivered'])).toMatchObject({
      type: 'credit_note',
    });

    const repeated = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: [{ company_id: sender.companyId, ubl: Buffer.from(xml).toString('base64'), idempotency_key: 'batch-ubl' }],
    });
    expect(repeated.body).toEqual([expect.objectContaining({ id: ublDocument!.id })]);
  });
});
