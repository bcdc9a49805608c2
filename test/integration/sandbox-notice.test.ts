import { randomBytes } from 'node:crypto';

import { SANDBOX_NOTICE } from '../../domain/rendering/sandbox-notice';
import { validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import {
  attachmentBytes,
  inboxFor,
  LIVE,
  liveSender,
  postLive,
  sendingAccount,
  waitForStatus,
  type InboxMessage,
} from '../support/documents';
import { ops } from '../support/ops';
import { pdfText } from '../support/rendering';

/**
 * A sandbox document's seller is whatever its sender wrote (sandbox keys are free, and nobody checks
 * who holds them): its email and every rendering of it say so. A live document's seller is the
 * KYC-verified company, and its renderings carry no such notice.
 */

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const number = fixture.number as string;
const NOT_VERIFIED = "sender's identity has not been verified";

describe('a sandbox document says its sender is unverified', () => {
  it('when a sandbox document is delivered, then its email, the PDF attached to it, and its PDF and HTML renderings say the sender is unverified', async () => {
    const sender = await sendingAccount();
    const email = `reader-${randomBytes(5).toString('hex')}@example.com`;
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: sender.companyId, to: { ...(fixture.to as object), email } },
    });
    expect(posted.status).toBe(202);
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered'], 60_000);

    const [message] = (await inboxFor(email)) as (InboxMessage & { text: string })[];
    expect(message!.subject.startsWith(`[Sandbox, sender not verified] Invoice ${number} from `)).toBe(true);
    expect(message!.text.split('\n')[0]).toBe(SANDBOX_NOTICE);
    const attachedPdf = message!.attachments!.find((attachment) => attachment.contentType === 'application/pdf')!;
    expect(await pdfText(await attachmentBytes(message!, attachedPdf.generatedFileName))).toContain(SANDBOX_NOTICE);

    const pdf = await callAs(sender.key, `/v1/documents/${posted.body.id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(SANDBOX_NOTICE);
    expect(text).toContain(`Invoice number: ${number}`);

    const html = await callAs(sender.key, `/v1/documents/${posted.body.id}/html`);
    expect(html.status).toBe(200);
    expect(html.text).toContain(`<body><div class="einvoice-notice" role="alert"`);
    expect(html.text).toContain(`>${SANDBOX_NOTICE}</div>`);
  }, 120_000);

  it('when a sandbox document is sent with attach_pdf, then the rendering embedded in its UBL, which its email carries too, is stamped', async () => {
    const sender = await sendingAccount();
    const email = `reader-${randomBytes(5).toString('hex')}@example.com`;
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...fixture, company_id: sender.companyId, to: { ...(fixture.to as object), email }, attach_pdf: true },
    });
    expect(posted.status).toBe(202);
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered'], 60_000);
    const ubl = (await callAs(sender.key, `/v1/documents/${posted.body.id}/ubl`)).text;
    const embedded = /<cbc:ID>RENDERED-PDF<\/cbc:ID>[\s\S]*?<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]+)</.exec(
      ubl,
    )![1]!;
    expect(await pdfText(Buffer.from(embedded, 'base64'))).toContain(SANDBOX_NOTICE);
    const [message] = await inboxFor(email);
    const attachedPdf = message!.attachments!.find((attachment) => attachment.contentType === 'application/pdf')!;
    expect(
      (await attachmentBytes(message!, attachedPdf.generatedFileName)).equals(Buffer.from(embedded, 'base64')),
    ).toBe(true);
  }, 120_000);

  it('when a live document is rendered, then neither its PDF nor its HTML carries the notice', async () => {
    const sender = await liveSender();
    expect((await ops('credits', 'add', sender.workspaceId, '1.00')).code).toBe(0);
    const posted = await postLive(sender.liveKey, {
      ...fixture,
      company_id: sender.companyId,
      number: 'LIVE-NOTICE-1',
    });
    expect(posted.status).toBe(202);

    const pdf = await callAs(sender.liveKey, `/v1/documents/${posted.body.id}/pdf`, { host: LIVE });
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('Invoice number: LIVE-NOTICE-1');
    expect(text).not.toContain(NOT_VERIFIED);

    const html = await callAs(sender.liveKey, `/v1/documents/${posted.body.id}/html`, { host: LIVE });
    expect(html.status).toBe(200);
    expect(html.text).toContain('LIVE-NOTICE-1');
    expect(html.text).not.toContain('einvoice-notice');
    expect(html.text).not.toContain(NOT_VERIFIED);
  }, 120_000);
});
