import { randomUUID } from 'node:crypto';
import path from 'node:path';

import { newSortableId } from '../../domain/ids';
import type { InvoiceResponseContent } from '../../domain/peppol/invoice-response';
import { MESSAGE_LEVEL_STATUS } from '../../domain/peppol/capabilities';
import {
  readApplicationResponse,
  writeInvoiceResponse,
  writeMessageLevelStatus,
  type ReadInvoiceResponse,
} from '../../domain/ubl/application-response';
import { fileInvoiceResponse } from '../../services/receiving/replies';

import { verifySignatureV2 } from '../../domain/webhooks';
import { inboxEntries, readBusinessDocument, sendInvoiceResponse } from '../../stack/peppol-network/responder';
import { sendFromStandIn } from '../../stack/peppol-network/standin-send';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { LIVE, postLive, sendingAccount, waitForStatus } from '../support/documents';
import { ops, opsWith } from '../support/ops';
import { liveReceiver } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Replies about documents we send, on the local Peppol network and in the
 * sandbox: the stand-in's buyer acknowledges a live invoice by itself (AB),
 * its access point sends the MLS our envelope asks for, `ops network
 * respond` rejects it (RE); the document shows the latest response and its
 * MLS while its delivery status stays `delivered`; a response that names no
 * sent document is kept and listed; the sandbox simulates a buyer's response
 * through the same path, announced by a signed webhook.
 */

const invoice = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;

const network = () => {
  const { dnsServer, receivingAccessPoint } = sharedStack().peppol;
  return {
    SML_DNS_PORT: dnsServer.split(':')[1]!,
    PEPPOL_RECEIVER_PORT: new URL(receivingAccessPoint).port,
    DATA_DIR: sharedStack().dataDir,
  };
};
const networkRespond = (...args: string[]) => opsWith(network(), 'network', 'respond', ...args);
const standIn = () => ({
  dnsServer: sharedStack().peppol.dnsServer,
  accessPointUrl: sharedStack().peppol.receivingAccessPoint,
  dataDir: sharedStack().dataDir,
});
const standInInbox = () => path.join(sharedStack().dataDir, 'peppol-network', 'inbox');

const liveDocument = (key: string, id: string, companyId: string) =>
  callAs(key, `/v1/documents/${id}?company_id=${companyId}`, { host: LIVE });
const liveEvents = (key: string, type: string) => callAs(key, `/v1/events?type=${type}`, { host: LIVE });

/** A live seller as these cases use it: its live key and its company. */
interface LiveSeller {
  liveKey: string;
  companyId: string;
}

/** A live invoice from a seller registered as a receiver (so replies can reach it), sent until delivered or failed. */
async function sendALiveInvoice(): Promise<{ seller: LiveSeller; number: string; id: string }> {
  // The example seller's details (the ones the fixtures validate with), under the company's own Peppol id, as its review verified them.
  const { peppol_id: _examplesId, ...details } = belgianSeller;
  const seller = await liveReceiver(details);
  expect((await ops('credits', 'add', seller.workspaceId, '5.00')).code).toBe(0);
  const number = `IR-LIVE-${Date.now()}`;
  const posted = await postLive(seller.liveKey, { ...invoice, company_id: seller.companyId, number });
  expect([posted.status, posted.text]).toEqual([202, expect.any(String)]);
  const id: string = posted.body.id;
  await waitForStatus(seller.liveKey, id, seller.companyId, ['delivered', 'failed'], 60_000, { host: LIVE });
  return { seller, number, id };
}

/** The stand-in's buyer acknowledges the invoice by itself (AB), and its access point sends the positive MLS. */
async function expectAcknowledgedWithAPositiveMls(seller: LiveSeller, id: string): Promise<void> {
  const acknowledged = await until(
    'the automatic AB and the MLS',
    () => liveDocument(seller.liveKey, id, seller.companyId),
    (response) => response.body.response?.code === 'AB' && response.body.mls?.code === 'AP',
    90_000,
  );
  expect(acknowledged.body).toMatchObject({
    status: 'delivered',
    response: { code: 'AB', reasons: [], actions: [], received_at: expect.any(String) },
    mls: { code: 'AP', reasons: [] },
  });
}

/** `ops network respond` rejects the invoice (RE), which becomes the document's response; its status stays delivered. */
async function expectARejectionByOpsItsLatestResponse(seller: LiveSeller, id: string, number: string): Promise<void> {
  const rejected = await networkRespond(
    number,
    'RE',
    '--reason',
    'REF:The order reference is wrong',
    '--action',
    'NIN',
    '--note',
    'Please send a new invoice',
  );
  expect(rejected.stderr).toBe('');
  expect(rejected.stdout).toContain(`Invoice Response RE`);
  const latest = await until(
    'the RE',
    () => liveDocument(seller.liveKey, id, seller.companyId),
    (response) => response.body.response?.code === 'RE',
    60_000,
  );
  expect(latest.body).toMatchObject({
    status: 'delivered',
    response: {
      code: 'RE',
      reasons: [{ code: 'REF', text: 'The order reference is wrong' }],
      actions: [{ code: 'NIN', text: null }],
      note: 'Please send a new invoice',
    },
  });
}

/** Both responses (AB, then RE) are kept in order, announced as events with the MLS, and written in the history. */
async function expectBothResponsesKeptAndAnnounced(seller: LiveSeller, id: string, number: string): Promise<void> {
  const responses = await withStore((store) =>
    store.invoiceResponses.find({ document_id: id }).sort({ _id: 1 }).lean(),
  );
  expect(responses.map((row) => [row.direction, row.code])).toEqual([
    ['received', 'AB'],
    ['received', 'RE'],
  ]);

  const announced = await until(
    'the response events',
    () => liveEvents(seller.liveKey, 'document.response_received'),
    (response) => response.body.data?.length === 2,
  );
  expect(announced.body.data.map((event: { data: { code: string } }) => event.data.code)).toEqual(['AB', 'RE']);
  expect(announced.body.data[1].data).toMatchObject({
    document_id: id,
    matched: true,
    status: 'delivered',
    number,
    reasons: [{ code: 'REF', text: 'The order reference is wrong' }],
  });
  const mls = await until(
    'the MLS event',
    () => liveEvents(seller.liveKey, 'document.mls_received'),
    (response) => response.body.data?.length === 1,
  );
  expect(mls.body.data[0].data).toMatchObject({ document_id: id, code: 'AP', status: 'delivered' });
  const steps = (await callAs(seller.liveKey, `/v1/documents/${id}/history`, { host: LIVE })).body as {
    step: string;
    status: string;
  }[];
  expect(steps.filter((step) => step.step === 'response_received')).toHaveLength(2);
  expect(steps.filter((step) => step.step === 'mls_received')).toHaveLength(1);
}

/** The buyer answers an invoice number the seller never sent: kept, listed and announced, never dropped. */
async function expectAResponseToAnUnknownNumberKept(seller: LiveSeller, number: string): Promise<void> {
  const entry = await until(
    'the invoice in the stand-in inbox',
    async () => {
      for (const candidate of await inboxEntries(standInInbox())) {
        const read = await readBusinessDocument(standInInbox(), candidate);
        if (read?.number === number) return read;
      }
      return undefined;
    },
    (found) => found !== undefined,
  );
  await sendInvoiceResponse(
    standIn(),
    { ...entry!, number: `${number}-UNKNOWN` },
    { code: 'UQ', reasons: [{ code: 'UNR', text: null }], actions: [], note: null },
  );
  const unmatched = await until(
    'the unmatched response',
    () => callAs(seller.liveKey, `/v1/unmatched-responses?company_id=${seller.companyId}`, { host: LIVE }),
    (response) => response.body.data?.length === 1,
  );
  expect(unmatched.body.data[0]).toMatchObject({
    code: 'UQ',
    referenced_number: `${number}-UNKNOWN`,
    reasons: [{ code: 'UNR', text: null }],
    sender_id: (invoice.to as { peppol_id: string }).peppol_id,
  });
  const unmatchedEvent = await until(
    'its event',
    () => liveEvents(seller.liveKey, 'document.response_received'),
    (response) => response.body.data?.length === 3,
  );
  expect(unmatchedEvent.body.data[2].data).toMatchObject({ document_id: null, matched: false, code: 'UQ' });
}

/** A sandbox account with a company that sends. */
interface SendingAccount {
  key: string;
  workspaceId: string;
  companyId: string;
}

/** A sandbox invoice of a fresh sending account, sent until delivered or failed. */
async function sendASandboxInvoice(): Promise<{ account: SendingAccount; number: string; documentId: string }> {
  const account = await sendingAccount();
  const number = `IR-RACE-${Date.now()}`;
  const posted = await callAs(account.key, '/v1/documents', {
    method: 'POST',
    body: { ...invoice, company_id: account.companyId, number },
  });
  expect(posted.status).toBe(202);
  await waitForStatus(account.key, posted.body.id, account.companyId, ['delivered', 'failed'], 60_000);
  return { account, number, documentId: posted.body.id };
}

/** Two buyer's messages that arrived at the same moment (RE and PD), filed concurrently as two receive workflows would. */
async function fileTwoFinalResponsesAtOnce(account: SendingAccount, number: string) {
  const buyer = (invoice.to as { peppol_id: string }).peppol_id;
  const seller = belgianSeller.peppol_id!;

  const receivedAt = new Date();
  const arrival = (content: InvoiceResponseContent) => {
    const ubl = writeInvoiceResponse({
      id: randomUUID(),
      issueDate: receivedAt.toISOString().slice(0, 10),
      sender: { participantId: buyer, name: 'Buyer' },
      receiver: { participantId: seller, name: belgianSeller.name },
      content,
      reference: { id: number, issueDate: null, typeCode: '380' },
    });
    const message = {
      _id: newSortableId('document'),
      company_id: account.companyId,
      workspace_id: account.workspaceId,
      environment: 'sandbox' as const,
      sender_id: buyer,
      receiver_id: seller,
      message_id: `${randomUUID()}@sandbox.einvoice`,
      received_at: receivedAt,
    };
    return { message, ubl, read: readApplicationResponse(ubl) as ReadInvoiceResponse };
  };
  const rejected = arrival({
    code: 'RE',
    reasons: [{ code: 'PRI', text: 'Wrong price' }],
    actions: [],
    note: null,
  });
  const paid = arrival({ code: 'PD', reasons: [], actions: [], note: null });
  await withStore((store) =>
    Promise.all(
      [rejected, paid].map(({ message, read, ubl }) =>
        fileInvoiceResponse(store, message, read, ubl, () => Promise.resolve(buyer)),
      ),
    ),
  );
  return [rejected, paid] as const;
}

/** A filed response, by the id of the message it came in. */
interface FiledResponse {
  message: { _id: string };
}

/** Exactly one of the two became the document's response; the other is listed refused, naming OP-BR111-R004. Returns the one. */
async function expectOneBecameTheResponse(
  account: SendingAccount,
  documentId: string,
  [rejected, paid]: readonly [FiledResponse, FiledResponse],
): Promise<FiledResponse> {
  const document = await callAs(account.key, `/v1/documents/${documentId}?company_id=${account.companyId}`);
  const winner = [rejected, paid].find(({ message }) => message._id === document.body.response?.response_id);
  expect(winner).toBeDefined();
  const loser = winner === rejected ? paid : rejected;
  const listed = await callAs(account.key, `/v1/documents/${documentId}/responses?company_id=${account.companyId}`);
  const byId = new Map(
    (listed.body.data as { id: string; status: string; error_message: string | null }[]).map((row) => [row.id, row]),
  );
  expect(byId.get(winner!.message._id)).toMatchObject({ status: 'received', error_message: null });
  expect(byId.get(loser.message._id)).toMatchObject({
    status: 'refused',
    error_message: expect.stringContaining('OP-BR111-R004'),
  });
  return winner!;
}

/** Through the intake and the receive workflow: nothing may follow the final code either, and the refusal is announced. */
async function expectALaterResponseRefused(
  account: SendingAccount,
  documentId: string,
  winner: FiledResponse,
): Promise<void> {
  const later = await callAs(
    account.key,
    `/v1/sandbox/documents/${documentId}/response?company_id=${account.companyId}`,
    { method: 'POST', body: { code: 'AB' } },
  );
  expect(later.status).toBe(202);
  const announced = await until(
    'the later response announced',
    () => callAs(account.key, `/v1/events?type=document.response_received&document_id=${documentId}`),
    (response) =>
      response.body.data?.some((event: { data: { response_id: string } }) => event.data.response_id === later.body.id),
  );
  const event = announced.body.data.find(
    (candidate: { data: { response_id: string } }) => candidate.data.response_id === later.body.id,
  );
  expect(event.data).toMatchObject({
    code: 'AB',
    matched: true,
    message: expect.stringContaining('OP-BR111-R004'),
  });
  const after = await callAs(account.key, `/v1/documents/${documentId}?company_id=${account.companyId}`);
  expect(after.body.response.response_id).toBe(winner.message._id);
}

describe('replies received about sent documents', () => {
  it('when a live invoice is delivered, then the stand-in acknowledges it (AB) with a positive MLS, a later RE by ops network respond becomes its response, its status stays delivered, and both responses and the MLS are announced', async () => {
    const { seller, number, id } = await sendALiveInvoice();
    await expectAcknowledgedWithAPositiveMls(seller, id);
    await expectARejectionByOpsItsLatestResponse(seller, id, number);
    await expectBothResponsesKeptAndAnnounced(seller, id, number);
    await expectAResponseToAnUnknownNumberKept(seller, number);
  }, 240_000);

  it('when an MLS names no document we sent, then it still gets its receipt, is kept under our service provider and listed by ops mls unmatched', async () => {
    const instanceId = randomUUID();
    const ubl = writeMessageLevelStatus({
      id: `MLS-${instanceId}`,
      issuedAt: new Date(),
      senderSpid: '000002',
      receiverSpid: '000001',
      code: 'RE',
      description: 'Not ours',
      referencedInstanceId: instanceId,
      lines: [{ reason: 'FD', description: 'Delivery to C4 failed', lineId: 'NA' }],
    });
    const routing = {
      root: {
        namespace: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
        name: 'ApplicationResponse',
      },
      documentType: MESSAGE_LEVEL_STATUS.documentType,
      process: MESSAGE_LEVEL_STATUS.process,
      sender: '0242:000002',
      receiver: '0242:000001',
      countryC1: 'BE',
    };
    const sent = await until(
      'our service provider in the SML',
      () =>
        sendFromStandIn(standIn(), {
          ubl,
          routing,
          service: MESSAGE_LEVEL_STATUS,
          messageId: `${instanceId}@peppol-standin`,
          instanceId: randomUUID(),
        }).catch((err: Error) => err),
      (result) => !(result instanceof Error) || !/not on the Peppol network/.test(result.message),
    );
    expect(sent).toMatchObject({ receipt: { receiverSeat: 'PBE000001' } });
    const listed = await until(
      'the unmatched MLS',
      () => ops('mls', 'unmatched'),
      (result) => result.stdout.includes(instanceId),
    );
    expect(JSON.parse(listed.stdout.split('\n').find((line) => line.includes(instanceId))!)).toMatchObject({
      code: 'RE',
      referenced_instance_id: instanceId,
      as4_message_id: `${instanceId}@peppol-standin`,
    });
  }, 120_000);

  describe('in the sandbox', () => {
    const hooks = new WebhookReceiver();
    beforeAll(() => hooks.start());
    afterAll(() => hooks.stop());

    it("when a test key simulates the buyer's RE to a sent sandbox document, then the document shows it, its status is unchanged and a signed document.response_received webhook carries the code and reasons; a live key is refused", async () => {
      const account = await sendingAccount();
      const webhook = await callAs(account.key, '/v1/webhooks', {
        method: 'POST',
        body: { url: hooks.url, events: ['document.response_received'] },
      });
      expect(webhook.status).toBe(201);
      const posted = await callAs(account.key, '/v1/documents', {
        method: 'POST',
        body: { ...invoice, company_id: account.companyId, number: `IR-SANDBOX-${Date.now()}` },
      });
      expect(posted.status).toBe(202);
      const sent = await waitForStatus(account.key, posted.body.id, account.companyId, ['delivered', 'failed'], 60_000);

      const response = await callAs(
        account.key,
        `/v1/sandbox/documents/${posted.body.id}/response?company_id=${account.companyId}`,
        {
          method: 'POST',
          body: {
            code: 'RE',
            reasons: [{ code: 'PRI', text: 'Unit price is not the agreed one' }],
            actions: [{ code: 'CNF' }],
            note: 'Rejected in the sandbox',
          },
        },
      );
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ document_id: posted.body.id, status: 'receiving' });

      const [delivery] = await hooks.waitFor(1, 60_000);
      expect(
        verifySignatureV2(
          String(delivery!.headers['x-peppol-signature-v2']),
          delivery!.raw,
          webhook.body.secret,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(true);
      const event = JSON.parse(delivery!.raw) as { type: string; data: Record<string, unknown> };
      expect(event).toMatchObject({
        type: 'document.response_received',
        data: {
          document_id: posted.body.id,
          matched: true,
          code: 'RE',
          reasons: [{ code: 'PRI', text: 'Unit price is not the agreed one' }],
          actions: [{ code: 'CNF', text: null }],
        },
      });
      const document = await callAs(account.key, `/v1/documents/${posted.body.id}?company_id=${account.companyId}`);
      expect(document.body).toMatchObject({
        status: sent.status,
        response: { code: 'RE', note: 'Rejected in the sandbox' },
      });

      // A reason is required for RE (PEPPOL-T111-R001), said before anything is built.
      const noReason = await callAs(
        account.key,
        `/v1/sandbox/documents/${posted.body.id}/response?company_id=${account.companyId}`,
        { method: 'POST', body: { code: 'RE' } },
      );
      expect(noReason.status).toBe(400);
      expect(noReason.body.error).toMatchObject({
        code: 'invalid_field',
        param: 'reasons',
        message: expect.stringContaining('PEPPOL-T111-R001'),
      });

      await withStore((store) => store.workspaces.updateOne({ _id: account.workspaceId }, { $set: { mode: 'live' } }));
      const liveKey = (
        await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false, label: 'live' } })
      ).body.api_key as string;
      const refused = await callAs(
        liveKey,
        `/v1/sandbox/documents/${posted.body.id}/response?company_id=${account.companyId}`,
        { method: 'POST', body: { code: 'AB' }, host: LIVE },
      );
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'sandbox_only' });
    }, 120_000);

    it('when two final responses to one sent document are filed at once, then exactly one becomes its response and the other is kept refused naming OP-BR111-R004; a later one through the sandbox is refused and announced so', async () => {
      const { account, number, documentId } = await sendASandboxInvoice();
      const filed = await fileTwoFinalResponsesAtOnce(account, number);
      const winner = await expectOneBecameTheResponse(account, documentId, filed);
      await expectALaterResponseRefused(account, documentId, winner);
    }, 120_000);
  });
});
