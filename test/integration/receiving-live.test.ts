import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { envelopedPayload } from '../../domain/peppol/envelope';
import { As4SendError } from '../../platform/peppol/access-point';
import { callAs, fakeClientIp, withStore } from '../support/accounts';
import { LIVE } from '../support/documents';
import { callApi } from '../support/http';
import { ops, opsWith } from '../support/ops';
import { liveReceiver, sendToUs, statedAmount, ublTo, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/**
 * Receiving on the local Peppol network, end to end: a company goes live and
 * is registered in our SMP and the stand-in SML; our lookup finds it with the
 * SMP's signature verified; the stand-in's access point sends it an invoice
 * and a credit note by AS4 (`ops network send`) to our access point, which
 * hands each to the intake before its receipt; the receive workflow files
 * them in the inbox and announces them by signed webhooks.
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

let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), 'receiving-live-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

/** A public lookup from an address of its own: the lookups of other tests do not count against it (LOOKUP_LIMIT per address). */
const lookupFromAnywhere = (path: string) => callApi(path, { headers: { 'X-Forwarded-For': fakeClientIp() } });

const inbox = (key: string, companyId: string) => callAs(key, `/v1/inbox?company_id=${companyId}`, { host: LIVE });

/** A live receiver, as liveReceiver makes it. */
type Receiver = Awaited<ReturnType<typeof liveReceiver>>;

/** A message sent to the receiver: its AS4 message id, its UBL and the document type it should be filed as. */
interface SentMessage {
  messageId: string;
  ubl: string;
  type: string;
}

/** Its registration is announced in the live feed. */
async function expectRegistrationAnnounced(receiver: Receiver): Promise<void> {
  const registered = await until(
    'the registration event',
    () => callAs(receiver.liveKey, '/v1/events?type=company.receiving_registered', { host: LIVE }),
    (response) => response.body.data?.length === 1,
  );
  expect(registered.body.data[0].data).toEqual({
    company_id: receiver.companyId,
    participant_id: receiver.peppolId,
    status: 'registered',
    error_message: null,
  });
}

/** Our lookup finds it, able to receive both, with each service's SMP signature verified. */
async function expectFindableWithSignedMetadata(receiver: Receiver): Promise<void> {
  const lookup = await lookupFromAnywhere(`/v1/lookup/${receiver.peppolId}`);
  expect(lookup.status).toBe(200);
  expect(lookup.body.can_receive).toEqual({ invoice: true, credit_note: true });
  for (const service of lookup.body.smp.services) expect(service.smp_signature).toMatchObject({ verified: true });
}

/** An invoice and a credit note sent to it by the stand-in's access point (`ops network send`), from files in workDir (a repeat sends the invoice's again). */
async function sendAnInvoiceAndACreditNote(receiver: Receiver): Promise<SentMessage[]> {
  const sent: SentMessage[] = [];
  for (const [fixture, type] of [
    ['standard rate S, one line', 'invoice'],
    ['credit note with invoice reference and due date', 'credit_note'],
  ] as const) {
    const ubl = ublTo(fixture, receiver.peppolId);
    const file = path.join(workDir, `${type}-${receiver.peppolId.replace(':', '-')}.xml`);
    await writeFile(file, ubl);
    const messageId = `${type}-${Date.now()}@receiving-live`;
    const result = await networkSend(receiver.peppolId, file, '--message-id', messageId);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('(access point PBE000001)');
    sent.push({ messageId, ubl, type });
  }
  return sent;
}

/** Both are in its inbox as sent: received, live, valid, with their amounts and their UBL as sent. */
async function expectBothInTheInbox(receiver: Receiver, sent: SentMessage[]): Promise<void> {
  const listed = await until(
    'the inbox',
    () => inbox(receiver.liveKey, receiver.companyId),
    (response) => response.body.data?.length === 2,
  );
  for (const { messageId, ubl, type } of sent) {
    const summary = listed.body.data.find((entry: { type: string }) => entry.type === type);
    const document = await callAs(receiver.liveKey, `/v1/documents/${summary.id}?company_id=${receiver.companyId}`, {
      host: LIVE,
    });
    expect(document.body).toMatchObject({
      direction: 'received',
      environment: 'live',
      status: 'received',
      totals: {
        payable: statedAmount(ubl, 'PayableAmount'),
        tax_exclusive: statedAmount(ubl, 'TaxExclusiveAmount'),
        tax_inclusive: statedAmount(ubl, 'TaxInclusiveAmount'),
      },
      received: {
        source: 'peppol',
        sender_id: '0208:0123456749',
        receiver_id: receiver.peppolId,
        access_point: 'PBE000002',
        as4_message_id: messageId,
        validation: { valid: true },
      },
    });
    const bytes = await callAs(receiver.liveKey, `/v1/documents/${summary.id}/ubl`, { host: LIVE });
    expect(bytes.text).toBe(envelopedPayload(ubl).trim());
  }
}

/** Announced in the live feed (and to live webhooks, which must be https: the sandbox test follows a delivery). */
async function expectBothAnnounced(receiver: Receiver): Promise<void> {
  const announced = await until(
    'the document.received events',
    () => callAs(receiver.liveKey, '/v1/events?type=document.received', { host: LIVE }),
    (response) => response.body.data?.length === 2,
  );
  for (const event of announced.body.data)
    expect(event.data).toMatchObject({
      company_id: receiver.companyId,
      sender_id: '0208:0123456749',
      json_view: true,
    });
}

/** The sender did not get our receipt and sends the same message again: a receipt, nothing new. */
async function expectARepeatCreatesNothing(receiver: Receiver, firstMessageId: string): Promise<void> {
  const repeat = await networkSend(
    receiver.peppolId,
    path.join(workDir, `invoice-${receiver.peppolId.replace(':', '-')}.xml`),
    '--message-id',
    firstMessageId,
  );
  expect(repeat.code).toBe(0);
  // The count is final at once: a message is stored before its receipt, and filed under the stored message's id.
  const stored = await withStore((store) => store.receivedMessages.countDocuments({ company_id: receiver.companyId }));
  expect(stored).toBe(2);
  expect((await inbox(receiver.liveKey, receiver.companyId)).body.data).toHaveLength(2);
}

/** Deleting the company unregisters it: the SML drops its NAPTR record. */
async function expectDeletingUnregisters(receiver: Receiver): Promise<void> {
  expect((await callAs(receiver.key, `/v1/companies/${receiver.companyId}`, { method: 'DELETE' })).status).toBe(200);
  await until(
    'the NAPTR record',
    () => lookupFromAnywhere(`/v1/lookup/${receiver.peppolId}/dns`),
    (response) => response.body.registered === false,
  );
  expect((await lookupFromAnywhere(`/v1/lookup/${receiver.peppolId}`)).status).toBe(404);
}

describe('receiving on the Peppol network', () => {
  it('when a company goes live, then it is findable with signed SMP metadata, an invoice and a credit note sent to it by AS4 land in its inbox as sent and are announced, a repeated message creates nothing, and deleting it removes its NAPTR record', async () => {
    const receiver = await liveReceiver();
    await expectRegistrationAnnounced(receiver);
    await expectFindableWithSignedMetadata(receiver);
    const sent = await sendAnInvoiceAndACreditNote(receiver);
    await expectBothInTheInbox(receiver, sent);
    await expectBothAnnounced(receiver);
    await expectARepeatCreatesNothing(receiver, sent[0]!.messageId);
    await expectDeletingUnregisters(receiver);
  }, 240_000);

  it("when the front page's company goes live and the inbound example of the docs is sent to it, then it lands valid in its inbox, and the Invoice Response the company gives reaches the example's seller on the stand-in", async () => {
    // The README's and the walkthrough's company: an id the stand-in does not hold, so it registers.
    const receiver = await liveReceiver({
      peppol_id: '0208:0745612076',
      company_registration_id: '0745.612.076',
      tax_id: 'BE0745612076',
    });
    const sent = await networkSend(
      receiver.peppolId,
      path.resolve(__dirname, '../../docs/examples/inbound-invoice.xml'),
    );
    expect(sent).toMatchObject({ code: 0, stderr: '' });
    const filed = await until(
      'the example in the inbox',
      () => inbox(receiver.liveKey, receiver.companyId),
      (response) => response.body.data?.length === 1,
    );
    const id: string = filed.body.data[0].id;
    const document = await until(
      'the example filed',
      () => callAs(receiver.liveKey, `/v1/documents/${id}?company_id=${receiver.companyId}`, { host: LIVE }),
      (response) => response.body.received?.validation !== undefined,
    );
    expect(document.body).toMatchObject({
      number: 'SELLER-2026-0007',
      received: { sender_id: '0208:0123456749', validation: { valid: true } },
    });

    const responses = `/v1/documents/${id}/responses?company_id=${receiver.companyId}`;
    const given = await callAs(receiver.liveKey, responses, { method: 'POST', body: { code: 'AP' }, host: LIVE });
    expect([given.status, given.text]).toEqual([202, expect.any(String)]);
    const answered = await until(
      'the response sent',
      () => callAs(receiver.liveKey, responses, { host: LIVE }),
      (response) => ['sent', 'failed'].includes(response.body.data?.[0]?.status),
      90_000,
    );
    expect(answered.body.data[0]).toMatchObject({ code: 'AP', status: 'sent', receiver_id: '0208:0123456749' });
  }, 240_000);

  it('when a company goes live with a Peppol id another access point registers, then its receiving fails saying so plainly, and ops kyc show shows it', async () => {
    // One of the stand-in's own participants: the stand-in SML holds it for another SMP.
    const receiver = await liveReceiver({ peppol_id: '0208:0404616494' }, 'registered_or_failed');
    expect(receiver.receiving).toMatchObject({
      status: 'failed',
      error_message: expect.stringContaining('Peppol id 0208:0404616494 is registered by another access point'),
    });
    expect(receiver.receiving.error_message).toContain('already exist');
    const shown = await ops('kyc', 'show', receiver.workspaceId);
    expect(JSON.parse(shown.stdout).companies).toEqual([
      expect.objectContaining({
        id: receiver.companyId,
        receiving: { status: 'failed', error_message: receiver.receiving.error_message },
      }),
    ]);
  }, 180_000);

  it('when a message is for a participant we do not serve, then our access point refuses it with PEPPOL:NOT_SERVICED and stores nothing', async () => {
    const stranger = uniqueBelgianPeppolId();
    const messageId = `stranger-${Date.now()}@receiving-live`;
    const attempt = sendToUs(ublTo('standard rate S, one line', stranger), stranger, messageId);
    await expect(attempt).rejects.toThrow(As4SendError);
    await expect(attempt).rejects.toThrow(/PEPPOL:NOT_SERVICED/);
    expect(await withStore((store) => store.receivedMessages.countDocuments({ message_id: messageId }))).toBe(0);
  });
});
