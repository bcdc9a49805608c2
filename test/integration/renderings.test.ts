import { randomBytes } from 'node:crypto';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { FINISHING_VERSION } from '../../domain/rendering/finish';
import { VIEWER_SCRIPT_SOURCE } from '../../domain/rendering/safe-html';
import { belgianBuyerCompany, belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, signUp } from '../support/accounts';
import { attachmentBytes, inboxFor, sendingAccount, waitForStatus } from '../support/documents';
import { callApi } from '../support/http';
import { until } from '../support/until';
import { pdfText } from '../support/rendering';
import { validatorLanes } from '../support/peppol-validator';

/**
 * Documents a person can read: `GET /v1/documents/{id}/pdf` and `/html` for sent and received
 * documents, and `attach_pdf` embedding it in the UBL.
 */

const fixture = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const recipient = () => `reader-${randomBytes(5).toString('hex')}@example.com`;

async function sentDocument(extra: Record<string, unknown> = {}) {
  const sender = await sendingAccount();
  const email = recipient();
  const posted = await callAs(sender.key, '/v1/documents', {
    method: 'POST',
    body: { ...fixture, company_id: sender.companyId, to: { ...(fixture.to as object), email }, ...extra },
  });
  expect(posted.status).toBe(202);
  return { sender, email, id: posted.body.id as string, number: fixture.number as string };
}

const embeddedPdfOf = (ubl: string) => {
  const match =
    /<cbc:ID>RENDERED-PDF<\/cbc:ID>[\s\S]*?<cbc:EmbeddedDocumentBinaryObject mimeCode="application\/pdf" filename="([^"]+)">([^<]+)</.exec(
      ubl,
    );
  return match && { filename: match[1], pdf: Buffer.from(match[2]!, 'base64') };
};

describe('a document as a person reads it', () => {
  it('when a sent document is asked for as a PDF, then it is rendered from its UBL, tagged, and not rendered again for the same tag', async () => {
    const { sender, id, number } = await sentDocument();
    const pdf = await callAs(sender.key, `/v1/documents/${id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="${number}.pdf"`);
    expect(pdf.headers.get('cache-control')).toBe('private, no-cache');
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(`Invoice number: ${number}`);
    expect(text).toContain(belgianSeller.name);

    const tag = pdf.headers.get('etag')!;
    expect(tag).toMatch(new RegExp(`^"[A-Za-z0-9_-]{22}-pdf-en-f${FINISHING_VERSION}"$`));
    const again = await callAs(sender.key, `/v1/documents/${id}/pdf`, { headers: { 'If-None-Match': tag } });
    expect(again.status).toBe(304);
    expect(again.bytes).toHaveLength(0);
    // A tag of the page as it was finished before (the same UBL, format and language) is not confirmed: that page may not be safe.
    const earlier = await callAs(sender.key, `/v1/documents/${id}/pdf`, {
      headers: { 'If-None-Match': tag.replace(/-f\d+"$/, '"') },
    });
    expect(earlier.status).toBe(200);
  });

  it('when another language is asked for, then the labels are in it; a language there is no rendering in is 400 naming those there are', async () => {
    const { sender, id, number } = await sentDocument();
    const german = await callAs(sender.key, `/v1/documents/${id}/pdf?lang=de`);
    expect(german.status).toBe(200);
    expect(await pdfText(german.bytes)).toContain(`Rechnungsnummer: ${number}`);
    expect(german.headers.get('etag')).toMatch(/-pdf-de-f\d+"$/);

    const french = await callAs(sender.key, `/v1/documents/${id}/html?lang=fr`);
    expect(french.status).toBe(200);
    expect(french.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(french.headers.get('content-security-policy')).toBe(
      `sandbox allow-scripts allow-downloads; default-src 'none'; style-src 'unsafe-inline'; script-src ${VIEWER_SCRIPT_SOURCE}; img-src data:`,
    );
    expect(french.text).toContain('Aperçu');
    expect(french.text).toContain(number);

    const dutch = await callAs(sender.key, `/v1/documents/${id}/pdf?lang=nl`);
    expect(dutch.status).toBe(200);
    expect(await pdfText(dutch.bytes)).toContain(`Factuurnummer: ${number}`);

    const italian = await callAs(sender.key, `/v1/documents/${id}/html?lang=it`);
    expect(italian.status).toBe(400);
    expect(italian.body.error).toMatchObject({ code: 'invalid_field', param: 'lang' });
    expect(italian.body.error.message).toMatch(/en.*de.*fr.*nl/);
  });

  it('when a received document is asked for, then it renders from the UBL as received', async () => {
    const account = await sendingAccount();
    const buyer = await callAs(account.key, '/v1/companies', { method: 'POST', body: belgianBuyerCompany });
    expect(buyer.status).toBe(201);
    const converted = convertDocument(documentInputSchema.parse(fixture), belgianSeller);
    if (!converted.ok) throw new Error('the standard fixture is refused');
    const posted = await callApi('/v1/sandbox/inbound', {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
      body: converted.ubl,
    });
    expect(posted.status).toBe(202);
    // Filed by its receive workflow: a document from then on.
    const html = await until(
      'the rendering',
      () => callAs(account.key, `/v1/documents/${posted.body.id}/html`),
      (response) => response.status === 200,
    );
    expect(html.text).toContain(String(fixture.number));
    expect(html.text).toContain(belgianBuyerCompany.name);
  });

  it('when another account asks for a document it cannot see, then 404 as for its UBL', async () => {
    const { id } = await sentDocument();
    const stranger = await signUp('stranger');
    for (const format of ['pdf', 'html']) {
      const response = await callAs(stranger.key, `/v1/documents/${id}/${format}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('document_not_found');
    }
  });

  it('when a document is sent with attach_pdf, then the UBL sent and officially validated carries its rendering as a supporting document, rendered in the lane for deliveries', async () => {
    const renderedBefore = (await validatorLanes()).render.completed;
    const { sender, id, number, email } = await sentDocument({ attach_pdf: true });
    await waitForStatus(sender.key, id, sender.companyId, ['delivered']);
    const ubl = await callAs(sender.key, `/v1/documents/${id}/ubl`);
    const embedded = embeddedPdfOf(ubl.text);
    expect(embedded?.filename).toBe(`${number}.pdf`);
    expect(await pdfText(embedded!.pdf)).toContain(`Invoice number: ${number}`);
    // Exactly one: the step is safe to repeat, and the rendering is made from the UBL without it.
    expect(ubl.text.match(/RENDERED-PDF/g)).toHaveLength(1);
    const document = await callAs(sender.key, `/v1/documents/${id}?company_id=${sender.companyId}`);
    expect(document.body.rule_set).toMatch(/^eu\.peppol\.bis3:/);
    // Never in the send lane, whose permits every document's validation needs.
    expect((await validatorLanes()).render.completed).toBeGreaterThan(renderedBefore);
    // The sandbox email carries that same rendering (a second one would differ at least in its creation time).
    const [message] = (await inboxFor(email)).filter((candidate) => candidate.messageId === `${id}@einvoice.localhost`);
    const pdf = message!.attachments!.find((attachment) => attachment.contentType === 'application/pdf')!;
    expect((await attachmentBytes(message!, pdf.generatedFileName)).equals(embedded!.pdf)).toBe(true);
  });
});
