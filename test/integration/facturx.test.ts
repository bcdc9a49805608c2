import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

import { FACTURX_SPECIFICATION } from '../../domain/cii/write';
import { SANDBOX_NOTICE } from '../../domain/rendering/sandbox-notice';
import { validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { attachmentBytes, inboxFor, sendingAccount, waitForStatus } from '../support/documents';
import { checkFacturX, embeddedFile, embeddedFileNames } from '../support/facturx';
import { pdfText } from '../support/rendering';

/**
 * `GET /v1/documents/{id}/facturx`: the document as a Factur-X (ZUGFeRD 2, EN 16931 profile), read by
 * programs that did not write it: Mustangproject's validator (veraPDF for PDF/A-3, the Factur-X rules
 * for the XML) and poppler's pdfdetach and pdftotext.
 */

const run = promisify(execFile);
const fixture = (name: string) => validFixtures.find((candidate) => candidate.name === name)!.body;
const GUIDELINE = /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>([^<]+)<\/ram:ID>/;

async function posted(body: Record<string, unknown>) {
  const sender = await sendingAccount();
  const email = `reader-${randomBytes(5).toString('hex')}@example.com`;
  const answer = await callAs(sender.key, '/v1/documents', {
    method: 'POST',
    body: { ...body, company_id: sender.companyId, to: { ...(body.to as object), email } },
  });
  expect(answer.status).toBe(202);
  return { sender, email, id: answer.body.id as string };
}

const pageCount = async (pdf: Buffer) => {
  const child = run('pdfinfo', ['-'], { encoding: 'utf8' });
  child.child.stdin?.end(pdf);
  return Number(/^Pages:\s+(\d+)$/m.exec((await child).stdout)![1]);
};

describe('a document as a Factur-X', () => {
  it('when a document is asked for as a Factur-X, then it is a PDF/A-3 with its CII inside as factur-x.xml, which an independent reader finds valid', async () => {
    const body = fixture('several S rates, line and document allowances and charges, prepaid amount');
    // Enough lines for several pages, each of which must carry the sandbox notice.
    const lines = Array.from({ length: 12 }, () => body.lines as unknown[]).flat();
    const { sender, id } = await posted({ ...body, lines });
    const answer = await callAs(sender.key, `/v1/documents/${id}/facturx`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(`inline; filename="${body.number as string}.pdf"`);
    expect(answer.headers.get('etag')).toMatch(/-facturx-en-f\d+"$/);

    const check = await checkFacturX(answer.bytes);
    expect(check.report).toMatch(/flavour=3b/);
    expect(check.report).toMatch(/isCompliant=true/);
    expect(check.valid).toBe(true);

    expect(await embeddedFileNames(answer.bytes)).toEqual(['factur-x.xml']);
    const xml = (await embeddedFile(answer.bytes, 1)).toString('utf8');
    expect(GUIDELINE.exec(xml)![1]).toBe(FACTURX_SPECIFICATION);
    const cii = await callAs(sender.key, `/v1/documents/${id}/cii`);
    expect(xml).toBe(cii.text.replace(GUIDELINE.exec(cii.text)![1]!, FACTURX_SPECIFICATION));

    const text = await pdfText(answer.bytes);
    expect(text).toContain(`Invoice number: ${body.number as string}`);
    const pages = await pageCount(answer.bytes);
    expect(pages).toBeGreaterThan(1);
    expect(text.split(SANDBOX_NOTICE).length - 1).toBe(pages);
  }, 180_000);

  it('when a credit note is asked for in German, then its Factur-X is valid too', async () => {
    const body = fixture('credit note with invoice reference and due date');
    const { sender, id } = await posted(body);
    const answer = await callAs(sender.key, `/v1/documents/${id}/facturx?lang=de`);
    expect(answer.status).toBe(200);
    const check = await checkFacturX(answer.bytes);
    expect(check.valid).toBe(true);
    expect((await embeddedFile(answer.bytes, 1)).toString('utf8')).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(await pdfText(answer.bytes)).toContain(body.number as string);
  }, 180_000);

  it('when a workspace asks for Factur-X in its sandbox emails, then the email carries the Factur-X in place of the plain PDF', async () => {
    const body = fixture('standard rate S, one line');
    const sender = await sendingAccount();
    const unchanged = await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`, { method: 'PATCH', body: {} });
    expect(unchanged.status).toBe(400);
    expect(unchanged.body.error.code).toBe('no_fields_to_update');
    const changed = await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`, {
      method: 'PATCH',
      body: { sandbox_email_pdf: 'facturx' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.sandbox_email_pdf).toBe('facturx');

    const email = `reader-${randomBytes(5).toString('hex')}@example.com`;
    const answer = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...body, company_id: sender.companyId, to: { ...(body.to as object), email } },
    });
    expect(answer.status).toBe(202);
    await waitForStatus(sender.key, answer.body.id, sender.companyId, ['delivered']);
    const [message] = await inboxFor(email);
    const attached = message!.attachments!.filter((attachment) => attachment.contentType === 'application/pdf');
    expect(attached).toHaveLength(1);
    const pdf = await attachmentBytes(message!, attached[0]!.generatedFileName);
    expect(await embeddedFileNames(pdf)).toEqual(['factur-x.xml']);
    expect(await pdfText(pdf)).toContain(SANDBOX_NOTICE);
    expect((await checkFacturX(pdf)).valid).toBe(true);
  }, 180_000);
});
