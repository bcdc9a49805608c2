import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { sbdPayload } from '../../domain/peppol/received-payload';
import { readApplicationResponse } from '../../domain/ubl/application-response';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';

import { connectDatabase } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import type { InvoiceResponseContent } from '../../domain/peppol/invoice-response';
import { peppolLookup } from '../../platform/peppol/lookup';
import { peppolTrust } from '../../platform/peppol/trust';
import { findCompany } from '../../services/companies';
import {
  discardUnclaimedResponses,
  draftInvoiceResponse,
  responseSendStart,
  type ResponseClaim,
} from '../../services/replies/invoice-responses';
import { UNACCEPTED_PARTS_GRACE_MS } from '../../services/documents/accept';
import { startWithUpdate } from '../../platform/workflow-port';
import { createStore } from '../../store';
import { GIVE_UPDATE, receiveWorkflowId, responseSendOptions, responseWorkflowId } from '../../workflows/shared';
import { callAs, fakeClientIp, withStore, type TestAccount } from '../support/accounts';
import { inProcessApp, listening } from '../support/in-process-api';
import { sharedTemporalClient } from '../support/temporal';
import { LIVE, sendingAccount } from '../support/documents';
import { callApi } from '../support/http';
import { opsWith } from '../support/ops';
import { liveReceiver, standInArrivals, ublTo } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/**
 * The replies our companies send about documents they received: Invoice
 * Responses given through the API (live: by AS4 to the seller's access
 * point on the local network; sandbox: without a network), the automatic
 * `AB`, and the Message Level Status our access point owes the stand-in's
 * when its SBDH asks for one. What the stand-in's access point received is
 * read back from its inbox, and its replies are valid under the official
 * rules (the public validator's T111 and MLS rule sets).
 */

const network = () => {
  const { dnsServer, receivingAccessPoint } = sharedStack().peppol;
  return {
    SML_DNS_PORT: dnsServer.split(':')[1]!,
    PEPPOL_RECEIVER_PORT: new URL(receivingAccessPoint).port,
    DATA_DIR: sharedStack().dataDir,
  };
};
const networkSend = (...args: string[]) => opsWith(network(), 'network', 'send', ...args);
const standIn = () => sharedStack().peppol.receivingAccessPoint;

/** What the stand-in's access point received by AS4 under this message id, read back as an ApplicationResponse. */
async function arrivedReply(messageId: string) {
  const arrival = await until(
    `the stand-in's arrival of ${messageId}`,
    async () => (await standInArrivals(messageId))[0],
    (found) => found !== undefined,
  );
  const sbd = Buffer.from(await (await fetch(`${standIn()}/inbox/${encodeURIComponent(messageId)}.xml`)).arrayBuffer());
  const xml = sbdPayload(sbd)!.toString('utf8');
  return { arrival: arrival!, xml, reply: readApplicationResponse(xml) };
}

/** The official rules' verdict on a reply, through the public validator (T111 for an Invoice Response, the MLS rules for an MLS): valid. */
async function expectOfficiallyValid(xml: string, documentType: 'invoice_response' | 'mls'): Promise<void> {
  const verdict = await callApi('/v1/ubl/validate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/xml', 'X-Forwarded-For': fakeClientIp() },
    body: xml,
  });
  expect(verdict.status).toBe(200);
  expect(verdict.body).toMatchObject({ valid: true, document_type: documentType });
}

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'replies-out-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

const temporal = sharedTemporalClient();
const responses = (key: string, documentId: string, companyId: string, host?: string) =>
  callAs(key, `/v1/documents/${documentId}/responses?company_id=${companyId}`, { ...(host && { host }) });
const respond = (key: string, documentId: string, companyId: string, body: unknown, host?: string) =>
  callAs(key, `/v1/documents/${documentId}/responses?company_id=${companyId}`, {
    method: 'POST',
    body,
    ...(host && { host }),
  });

describe('replies to documents received on the Peppol network', () => {
  let receiver: Awaited<ReturnType<typeof liveReceiver>>;
  const inbox = () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE });

  /** The stand-in sends `ubl` to our company by AS4; resolves with the received document's id. */
  async function receive(ubl: string, label: string, ...options: string[]): Promise<string> {
    const before: string[] = (await inbox()).body.data.map((entry: { id: string }) => entry.id);
    const file = path.join(workDir, `${label}.xml`);
    await writeFile(file, ubl);
    const sent = await networkSend(receiver.peppolId, file, ...options);
    expect(sent).toMatchObject({ code: 0, stderr: '' });
    const listed = await until('the inbox', inbox, (response) =>
      response.body.data?.some((entry: { id: string }) => !before.includes(entry.id)),
    );
    return listed.body.data.find((entry: { id: string }) => !before.includes(entry.id)).id;
  }

  /** The MLS our access point owes the stand-in's for the received document (its SBDH asked for one always): AB, with no lines. */
  async function expectAnAbMls(documentId: string) {
    const mls = await arrivedReply(`${documentId}@einvoice`);
    expect(mls.arrival).toMatchObject({
      receiverId: '0242:000002',
      documentTypeId: expect.stringContaining('urn:peppol:edec:mls:1.0'),
    });
    expect(mls.reply).toMatchObject({
      kind: 'mls',
      code: 'AB',
      senderSpid: '000001',
      receiverSpid: '000002',
      lines: [],
    });
    return mls;
  }

  /** The Invoice Response given, as the seller's access point received it by AS4: AP, from our company to the seller, about an invoice. */
  async function expectTheApArrived(responseId: string) {
    const arrived = await arrivedReply(`${responseId}@einvoice`);
    expect(arrived.arrival).toMatchObject({
      receiverId: '0208:0123456749',
      documentTypeId: expect.stringContaining('invoice_response:3'),
    });
    expect(arrived.reply).toMatchObject({
      kind: 'invoice_response',
      code: 'AP',
      note: 'Approved for payment',
      sender: { participantId: receiver.peppolId },
      receiver: { participantId: '0208:0123456749' },
      reference: { typeCode: '380' },
    });
    return arrived;
  }

  /** The response sent is announced (document.response_sent) and written in the document's history, beside its MLS. */
  async function expectTheResponseSentAnnounced(documentId: string, responseId: string): Promise<void> {
    const events = await until(
      'document.response_sent',
      () =>
        callAs(receiver.liveKey, `/v1/events?type=document.response_sent&document_id=${documentId}`, { host: LIVE }),
      (response) => response.body.data?.length === 1,
    );
    expect(events.body.data[0].data).toMatchObject({
      response_id: responseId,
      code: 'AP',
      status: 'sent',
      as4_message_id: `${responseId}@einvoice`,
    });
    const history = await callAs(receiver.liveKey, `/v1/documents/${documentId}/history`, { host: LIVE });
    expect(history.body.map((entry: { step: string }) => entry.step)).toEqual(
      expect.arrayContaining(['received', 'mls_sent', 'response_sent']),
    );
  }

  beforeAll(async () => {
    receiver = await liveReceiver();
  }, 120_000);

  it('when the stand-in asks for MLS always, then it gets AB; when our company answers AP through the API, then the seller receives that Invoice Response by AS4 and the document says so', async () => {
    const documentId = await receive(ublTo('standard rate S, one line', receiver.peppolId), 'ap', '--mls', 'always');

    const mls = await expectAnAbMls(documentId);

    const given = await respond(
      receiver.liveKey,
      documentId,
      receiver.companyId,
      { code: 'AP', note: 'Approved for payment' },
      LIVE,
    );
    expect(given.status).toBe(202);
    expect(given.body).toMatchObject({
      document_id: documentId,
      direction: 'sent',
      code: 'AP',
      status: 'queued',
      reasons: [],
      actions: [],
      note: 'Approved for payment',
      receiver_id: '0208:0123456749',
    });

    const sent = await until(
      'the response sent',
      () => responses(receiver.liveKey, documentId, receiver.companyId, LIVE),
      (response) => response.body.data?.[0]?.status !== 'queued',
    );
    expect(sent.body.data).toEqual([
      expect.objectContaining({ id: given.body.id, status: 'sent', error_message: null }),
    ]);

    const arrived = await expectTheApArrived(given.body.id);
    await expectOfficiallyValid(arrived.xml, 'invoice_response');
    await expectOfficiallyValid(mls.xml, 'mls');

    await expectTheResponseSentAnnounced(documentId, given.body.id);

    // After AP only PD (OP-BR111-R005).
    const refused = await respond(
      receiver.liveKey,
      documentId,
      receiver.companyId,
      { code: 'UQ', reasons: [{ code: 'PRI' }] },
      LIVE,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'response_not_allowed', details: { rule: 'OP-BR111-R005' } });
  }, 180_000);

  it('when an invoice the official rules refuse arrives (no MLS scope: failure only), then the stand-in gets RE with BV lines', async () => {
    const broken = ublTo('standard rate S, one line', receiver.peppolId).replace(
      /(<cbc:PayableAmount currencyID="EUR">)[^<]+/,
      '$1999.99',
    );
    const documentId = await receive(broken, 'invalid');
    const { reply } = await arrivedReply(`${documentId}@einvoice`);
    expect(reply).toMatchObject({ kind: 'mls', code: 'RE', description: 'Rejected due to validation errors' });
    const lines = (reply as { lines: { reason: string; description: string }[] }).lines;
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'BV', description: expect.stringMatching(/^\[BR-CO-16\]/) }),
      ]),
    );
  }, 120_000);

  it('when two responses are drafted against the same document and another is given first, then each loser’s workflow refuses it at its claim, removes its row and never sends it; a draft whose workflow never started is removed by the clean-up', async () => {
    const documentId = await receive(ublTo('standard rate S, one line', receiver.peppolId), 'race');
    const db = await connectDatabase(sharedStack().mongodbUri);
    const store = createStore(db);
    const { dnsServer, zone, ca } = sharedStack().peppol;
    const lookup = peppolLookup({
      zone,
      dnsServer,
      smpAddresses: { allowPrivate: true },
      httpSmp: true,
      trust: peppolTrust({ PEPPOL_SMP_CA: ca, PEPPOL_AP_CA: ca }),
    });
    const deps = { store, lookup, logger: createLogger('silent', 'test'), deliveryWindowSeconds: 60 };
    try {
      // Two requests' drafts, both judged against the document before anything was given; a third request died after its draft.
      const document = (await store.documents.findById(documentId).lean())!;
      const company = (await findCompany(store, receiver.companyId))!;
      const draft = (content: Pick<InvoiceResponseContent, 'code' | 'reasons'>) =>
        draftInvoiceResponse(deps, document, company, { actions: [], note: null, ...content });
      const losers = [
        await draft({ code: 'RE', reasons: [{ code: 'OTH', text: 'no' }] }),
        await draft({ code: 'UQ', reasons: [{ code: 'PRI', text: null }] }),
      ];
      const stranded = await draft({ code: 'AP', reasons: [] });
      const winner = await respond(receiver.liveKey, documentId, receiver.companyId, { code: 'AB' }, LIVE);
      expect(winner.status).toBe(202);

      // The losers' workflows, started as their requests would: each claim is refused, as the API answers it (409).
      for (const loser of losers) {
        const start = responseSendStart(loser.row, loser.previousResponseId, 60);
        const claim = await startWithUpdate<'sendResponseWorkflow', ResponseClaim>(
          temporal(),
          'sendResponseWorkflow',
          GIVE_UPDATE,
          { ...responseSendOptions(start), input: start.input },
        );
        expect(claim).toEqual({
          given: false,
          refusal: expect.objectContaining({
            code: 'response_not_allowed',
            options: expect.objectContaining({ details: expect.objectContaining({ rule: 'OP-BR111-R012' }) }),
          }),
        });
        await expect(temporal().workflow.getHandle(responseWorkflowId(loser.row._id)).result()).resolves.toBe(
          'not given',
        );
        expect(await store.invoiceResponses.findById(loser.row._id).lean()).toBeNull();
      }

      // The clean-up, once the grace has passed: the draft never given goes, the winner stays.
      expect(
        await discardUnclaimedResponses(store, Date.now() + UNACCEPTED_PARTS_GRACE_MS + 60_000),
      ).toBeGreaterThanOrEqual(1);
      expect(await store.invoiceResponses.findById(stranded.row._id).lean()).toBeNull();
      await expect(temporal().workflow.getHandle(responseWorkflowId(stranded.row._id)).describe()).rejects.toThrow(
        WorkflowNotFoundError,
      );

      const sent = await until(
        'the winner sent',
        () => responses(receiver.liveKey, documentId, receiver.companyId, LIVE),
        (response) => response.body.data?.some((row: { status: string }) => row.status === 'sent'),
      );
      expect(sent.body.data.map((row: { id: string; status: string }) => [row.id, row.status])).toEqual([
        [winner.body.id, 'sent'],
      ]);
      expect((await arrivedReply(`${winner.body.id}@einvoice`)).reply).toMatchObject({
        kind: 'invoice_response',
        code: 'AB',
      });
      for (const never of [...losers, stranded]) expect(await standInArrivals(`${never.row._id}@einvoice`)).toEqual([]);
    } finally {
      await db.close();
    }
  }, 180_000);

  it('when the company acknowledges automatically, then every invoice received is answered AB by AS4, sent by a child of the receive workflow', async () => {
    const patched = await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, {
      method: 'PATCH',
      body: { auto_acknowledge: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.auto_acknowledge).toBe(true);
    const documentId = await receive(ublTo('standard rate S, one line', receiver.peppolId), 'auto');
    const answered = await until(
      'the automatic AB',
      () => responses(receiver.liveKey, documentId, receiver.companyId, LIVE),
      (response) => response.body.data?.[0]?.status === 'sent',
    );
    expect(answered.body.data).toEqual([expect.objectContaining({ code: 'AB', direction: 'sent', status: 'sent' })]);
    const { reply } = await arrivedReply(`${answered.body.data[0].id}@einvoice`);
    expect(reply).toMatchObject({ kind: 'invoice_response', code: 'AB' });
    // Started by the receive workflow itself, not by an activity: its parent; its own first step claimed it.
    const sending = await temporal().workflow.getHandle(responseWorkflowId(answered.body.data[0].id)).describe();
    expect(sending.parentExecution?.workflowId).toBe(receiveWorkflowId(documentId));
    await withStore(async (store) =>
      expect(await store.invoiceResponses.findById(answered.body.data[0].id, { claimed: 1 }).lean()).toMatchObject({
        claimed: true,
      }),
    );
  }, 120_000);
});

describe('replies to documents received in the sandbox', () => {
  const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
  const converted = convertDocument(documentInputSchema.parse(fixture), belgianSeller);
  if (!converted.ok) throw new Error('the standard fixture is refused');
  const buyerPeppolId = (fixture.to as { peppol_id: string }).peppol_id;

  let account: TestAccount & { companyId: string; buyerId: string };
  beforeAll(async () => {
    const seller = await sendingAccount();
    const buyer = await callAs(seller.key, '/v1/companies', {
      method: 'POST',
      body: { name: 'Example Buyer NV', country: 'BE', peppol_id: buyerPeppolId },
    });
    account = { ...seller, buyerId: buyer.body.id };
  });

  async function receivedInSandbox(): Promise<string> {
    const posted = await callApi('/v1/sandbox/inbound', {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
      body: converted.ok ? converted.ubl : '',
    });
    expect(posted.status).toBe(202);
    await until(
      'the filed document',
      () => callAs(account.key, `/v1/documents/${posted.body.id}?company_id=${account.buyerId}`),
      (response) => response.status === 200,
    );
    return posted.body.id;
  }

  it('when the buyer rejects with a reason, then the response completes without a network, and a later code is refused naming OP-BR111-R004', async () => {
    const documentId = await receivedInSandbox();
    const missing = await respond(account.key, documentId, account.buyerId, { code: 'RE' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'invalid_field',
      param: 'reasons',
      message: expect.stringContaining('PEPPOL-T111-R001'),
    });

    const rejected = await respond(account.key, documentId, account.buyerId, {
      code: 'RE',
      reasons: [{ code: 'REF', text: 'Unknown order' }],
      actions: [{ code: 'NIN' }],
    });
    expect(rejected.status).toBe(202);
    const done = await until(
      'the sandbox response',
      () => responses(account.key, documentId, account.buyerId),
      (response) => response.body.data?.[0]?.status === 'sent',
    );
    expect(done.body.data[0]).toMatchObject({
      code: 'RE',
      reasons: [{ code: 'REF', text: 'Unknown order' }],
      actions: [{ code: 'NIN', text: null }],
    });
    const events = await until(
      'document.response_sent',
      () => callAs(account.key, `/v1/events?type=document.response_sent&document_id=${documentId}`),
      (response) => response.body.data?.length === 1,
    );
    expect(events.body.data[0].data).toMatchObject({ code: 'RE', status: 'sent', as4_message_id: null });

    const after = await respond(account.key, documentId, account.buyerId, { code: 'PD' });
    expect(after.status).toBe(409);
    expect(after.body.error).toMatchObject({
      code: 'response_not_allowed',
      details: { rule: 'OP-BR111-R004' },
      message: expect.stringContaining('OP-BR111-R004'),
    });
  }, 60_000);

  it('when two final responses race, then one is given and the other refused', async () => {
    const documentId = await receivedInSandbox();
    const answers = await Promise.all([
      respond(account.key, documentId, account.buyerId, { code: 'PD' }),
      respond(account.key, documentId, account.buyerId, { code: 'RE', reasons: [{ code: 'OTH', text: 'no' }] }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    const listed = await responses(account.key, documentId, account.buyerId);
    expect(listed.body.data).toHaveLength(1);
  }, 60_000);

  it('when the API cannot reach Temporal, then the response is not given: 503, nothing claimed or sent, and a later answer is judged as if it had not been asked', async () => {
    const documentId = await receivedInSandbox();
    const db = await connectDatabase(sharedStack().mongodbUri);
    const away = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 1_000 }) });
    const { url, close } = await listening(inProcessApp(db, {}, { temporal: away }));
    try {
      const refused = await callAs(account.key, `/v1/documents/${documentId}/responses?company_id=${account.buyerId}`, {
        method: 'POST',
        body: { code: 'AB' },
        baseUrl: url,
      });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'service_unavailable', retry: { retryable: true } });
      const rows = await withStore((store) => store.invoiceResponses.find({ document_id: documentId }).lean());
      expect(rows.map((row) => row.claimed)).toEqual([false]);
      expect(
        (await callAs(account.key, `/v1/documents/${documentId}?company_id=${account.buyerId}`)).body.response,
      ).toBeNull();

      const given = await respond(account.key, documentId, account.buyerId, { code: 'AP' });
      expect(given.status).toBe(202);
      const sent = await until(
        'the response given later',
        () => responses(account.key, documentId, account.buyerId),
        (response) => response.body.data?.some((row: { status: string }) => row.status === 'sent'),
      );
      expect(sent.body.data.filter((row: { status: string }) => row.status === 'sent')).toEqual([
        expect.objectContaining({ id: given.body.id, code: 'AP' }),
      ]);
    } finally {
      await close();
      await db.close();
    }
  }, 90_000);

  it('when the document was sent, not received, then it cannot be answered', async () => {
    const sent = await callAs(account.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: account.companyId },
    });
    expect(sent.status).toBe(202);
    const refused = await respond(account.key, sent.body.id, account.companyId, { code: 'AB' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('not_received_document');
  });
});
