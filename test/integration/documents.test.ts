import { randomBytes } from 'node:crypto';

import { Client, Connection, WithStartWorkflowOperation, WorkflowUpdateStage } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';

import { discardUnacceptedParts, UNACCEPTED_PARTS_GRACE_MS } from '../../services/documents/accept';
import { acceptBySendWorkflow } from '../../services/documents/dispatch';
import { ACCEPT_UPDATE, sendWorkflowId, TASK_QUEUE } from '../../workflows/shared';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs, signUp, withStore } from '../support/accounts';
import {
  attachmentBytes,
  attachmentText,
  inboxFor,
  partsStoredAsTheApiDoes,
  sendingAccount,
  waitForStatus,
} from '../support/documents';
import { until } from '../support/until';
import { essentialsOf, pdfText } from '../support/rendering';
import { sharedStack } from '../support/test-stack';

const fixture = (name: string) => validFixtures.find((candidate) => candidate.name.startsWith(name))!.body;
const recipient = () => `buyer-${randomBytes(5).toString('hex')}@example.com`;
const withRecipient = (body: Record<string, unknown>, email: string, companyId: string) => ({
  ...body,
  company_id: companyId,
  to: { ...(body.to as object), email },
});

/** A client of the shared stack's Temporal server for the length of `use`. */
async function withTemporal<T>(use: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: sharedStack().temporalAddress });
  try {
    return await use(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

describe('documents on the real stack', () => {
  it('when a document or attachment id names nothing, however it looks, then 404 document_not_found or attachment_not_found', async () => {
    const sender = await sendingAccount();
    for (const id of ['doc_doesnotexist000', 'not-an-id']) {
      for (const path of [
        `/v1/documents/${id}?company_id=${sender.companyId}`,
        `/v1/documents/${id}/history`,
        `/v1/documents/${id}/ubl`,
      ]) {
        const response = await callAs(sender.key, path);
        expect({ path, status: response.status, code: response.body.error.code }).toEqual({
          path,
          status: 404,
          code: 'document_not_found',
        });
      }
    }
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    for (const id of ['att_doesnotexist000', 'not-an-id']) {
      const response = await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments/${id}`);
      expect({ id, status: response.status, code: response.body.error.code }).toEqual({
        id,
        status: 404,
        code: 'attachment_not_found',
      });
    }
  });

  it('when an invoice and a credit note are posted, then both are delivered by email with the exact UBL and a PDF of it, and the UBL can be downloaded', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    const invoice = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: withRecipient(fixture('standard rate S'), email, sender.companyId),
    });
    expect(invoice.status).toBe(202);
    expect(invoice.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      url: expect.stringContaining(`/v1/documents/${invoice.body.id}`),
      status: 'queued',
      warnings: [],
    });
    expect(invoice.headers.get('location')).toBe(invoice.body.url);
    const creditNote = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: withRecipient(fixture('credit note'), email, sender.companyId),
    });
    expect(creditNote.status).toBe(202);

    for (const document of [invoice.body, creditNote.body]) {
      const delivered = await waitForStatus(sender.key, document.id, sender.companyId, ['delivered', 'failed']);
      expect(delivered).toMatchObject({
        status: 'delivered',
        error_message: null,
        recipient_email: email,
        message_id: `<${document.id}@einvoice.localhost>`,
      });
      const ubl = await callAs(sender.key, `/v1/documents/${document.id}/ubl`);
      expect(ubl.status).toBe(200);
      expect(ubl.headers.get('content-type')).toMatch(/^application\/xml/);
      const messages = (await inboxFor(email)).filter(
        (message) => message.messageId === `${document.id}@einvoice.localhost`,
      );
      expect(messages).toHaveLength(1);
      const [attachment, pdf] = messages[0]!.attachments ?? [];
      expect(attachment).toMatchObject({
        fileName: expect.stringMatching(/^(INV|CN)-2026-00\d\d\.xml$/),
        contentType: 'application/xml',
      });
      expect(await attachmentText(messages[0]!, attachment!.generatedFileName)).toBe(ubl.text);
      // The PDF beside it is a reading of that UBL: pdftotext finds its number and the amount due in it.
      expect(pdf).toMatchObject({
        fileName: attachment!.fileName.replace(/\.xml$/, '.pdf'),
        contentType: 'application/pdf',
      });
      const text = await pdfText(await attachmentBytes(messages[0]!, pdf!.generatedFileName));
      const essentials = essentialsOf(ubl.text);
      expect(text).toContain(essentials.number);
      expect(text).toContain(essentials.payable);
    }
    expect((await callAs(sender.key, `/v1/documents/${creditNote.body.id}/ubl`)).text).toContain('<CreditNote');
    // The worker counts a delivery behind the move to delivered (services/usage.ts): the count follows within moments.
    const sent = () =>
      callAs(sender.key, '/v1/account/usage?days=1').then((response) => response.body.totals.documents_sent as number);
    expect(await until('documents_sent', sent, (count) => count >= 2, 10_000)).toBe(2);
  });

  it('when the history is read, then it lists created, validated, queued, sending and delivered with their events', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: withRecipient(fixture('standard rate S'), recipient(), sender.companyId),
    });
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered']);
    const history = await callAs(sender.key, `/v1/documents/${posted.body.id}/history`);
    expect(history.body.map((entry: { step: string }) => entry.step)).toEqual([
      'created',
      'validated',
      'queued',
      'sending',
      'delivered',
    ]);
    expect(history.body.map((entry: { event: { type: string } | null }) => entry.event?.type ?? null)).toEqual([
      null,
      null,
      'document.queued',
      'document.sending',
      'document.delivered',
    ]);
    for (const entry of history.body) expect(Date.parse(entry.at)).not.toBeNaN();
  });

  it('when the same idempotency key is sent again, even concurrently, then one document exists and one email goes out', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    const body = withRecipient(fixture('standard rate S'), email, sender.companyId);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        i % 2 === 0
          ? callAs(sender.key, '/v1/documents', { method: 'POST', body: { ...body, idempotency_key: 'order-77' } })
          : callAs(sender.key, '/v1/documents', { method: 'POST', body, headers: { 'Idempotency-Key': 'order-77' } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 202]);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.every((response) => response.body.status === 'queued')).toBe(true);
    const id = responses[0]!.body.id;
    await waitForStatus(sender.key, id, sender.companyId, ['delivered']);
    const again = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...body, idempotency_key: 'order-77' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id, status: 'queued' });
    // One document, so one send workflow (its id is the document's): the one email is in the inbox once it is delivered.
    expect((await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data).toHaveLength(1);
    expect(await inboxFor(email)).toHaveLength(1);
  });

  it('when a document breaks rules, then 422 lists every violation with its path and rule id, and nothing is stored', async () => {
    const sender = await sendingAccount();
    const response = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: {
        ...fixture('standard rate S'),
        company_id: sender.companyId,
        buyer_reference: undefined,
        order_reference: undefined,
        lines: [
          { description: 'x', quantity: 1, unit_price: 10, tax_rate: 0 },
          { description: 'y', quantity: 'lots', unit_price: 1, tax_rate: 21 },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ type: 'validation_error', code: 'document_invalid' });
    expect(response.body.error.details.violations).toEqual(
      expect.arrayContaining([
        {
          path: 'lines[1].quantity',
          rule: 'BR-22',
          message: expect.stringMatching(/^lines\[1\]\.quantity: expected a decimal number/),
        },
      ]),
    );

    const meaning = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: {
        ...fixture('standard rate S'),
        company_id: sender.companyId,
        buyer_reference: undefined,
        order_reference: undefined,
        lines: [{ description: 'x', quantity: 1, unit_price: 10, tax_rate: 0 }],
      },
    });
    expect(meaning.status).toBe(422);
    expect(
      meaning.body.error.details.violations.map(
        (violation: { path: string; rule: string | null }) => `${violation.path} ${violation.rule}`,
      ),
    ).toEqual(['buyer_reference PEPPOL-EN16931-R003', 'lines[0].tax_category BR-CO-04']);
    expect((await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data).toEqual([]);
  });

  it('when a field is missing or unknown, then the violation says so in our words, naming its rule or the nearest known field', async () => {
    const sender = await sendingAccount();
    const { to: _to, ...withoutBuyer } = fixture('standard rate S');
    const response = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...withoutBuyer, company_id: sender.companyId, curency: 'EUR' },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.violations).toEqual([
      { path: 'to', rule: 'BR-07', message: 'to is required.' },
      { path: 'curency', rule: null, message: 'curency is not a field; did you mean currency?' },
    ]);
    const company = await callAs(sender.key, '/v1/companies', {
      method: 'POST',
      body: { ...belgianSeller, adress: belgianSeller.address },
    });
    expect([company.status, company.body.error]).toEqual([
      400,
      expect.objectContaining({
        code: 'invalid_field',
        param: 'adress',
        message: 'adress is not a field; did you mean address?',
      }),
    ]);
  });

  it('when a standard VAT rate no country uses is sent, then 422 names the rate meant; a rate only other countries use is sent with vat_rate_unusual', async () => {
    const sender = await sendingAccount();
    const body = withRecipient(fixture('standard rate S'), recipient(), sender.companyId);
    const line = { description: 'Consulting', quantity: 1, unit_price: 100 };
    const fraction = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...body, lines: [{ ...line, tax_rate: 0.21 }] },
    });
    expect(fraction.status).toBe(422);
    expect(fraction.body.error.details.violations).toEqual([
      {
        path: 'lines[0].tax_rate',
        rule: null,
        message: expect.stringMatching(/^0\.21 looks like a fraction: .*send 21\.$/),
      },
    ]);
    const gross = await callAs(sender.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...body, lines: [{ ...line, tax_rate: 121 }] },
    });
    expect(gross.body).toMatchObject({
      valid: false,
      warnings: [],
      violations: [{ path: 'lines[0].tax_rate', message: expect.stringContaining('send 21') }],
    });

    // The company is Belgian: 19 % is German (and others'), not Belgian.
    const unusual = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: {
        ...body,
        lines: [
          { ...line, tax_rate: 19 },
          { ...line, tax_rate: 19 },
        ],
      },
    });
    expect(unusual.status).toBe(202);
    expect(unusual.body.warnings).toEqual([
      {
        code: 'vat_rate_unusual',
        path: 'lines[0].tax_rate',
        message: expect.stringMatching(/^BE does not use a VAT rate of 19 %.*DE/),
      },
    ]);
    expect(await waitForStatus(sender.key, unusual.body.id, sender.companyId, ['delivered', 'failed'])).toMatchObject({
      status: 'delivered',
    });
  });

  it('when a company sends a number it already used for that type, then the answer warns duplicate_number naming the earlier document; a replay or another type does not', async () => {
    const sender = await sendingAccount();
    const invoice = {
      ...withRecipient(fixture('standard rate S'), recipient(), sender.companyId),
      number: 'INV-DUP-1',
    };
    const first = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: invoice,
      headers: { 'Idempotency-Key': 'dup-1' },
    });
    expect([first.status, first.body.warnings]).toEqual([202, []]);

    const second = await callAs(sender.key, '/v1/documents', { method: 'POST', body: invoice });
    expect(second.status).toBe(202);
    expect(second.body.warnings).toEqual([
      { code: 'duplicate_number', path: 'number', message: expect.stringContaining(first.body.id) },
    ]);
    const replay = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: invoice,
      headers: { 'Idempotency-Key': 'dup-1' },
    });
    expect([replay.status, replay.body.id, replay.body.warnings]).toEqual([200, first.body.id, []]);

    const creditNote = { ...withRecipient(fixture('credit note'), recipient(), sender.companyId), number: 'INV-DUP-1' };
    expect((await callAs(sender.key, '/v1/documents', { method: 'POST', body: creditNote })).body.warnings).toEqual([]);
    const validated = await callAs(sender.key, '/v1/documents/validate', { method: 'POST', body: invoice });
    expect(validated.body).toMatchObject({
      valid: true,
      warnings: [{ code: 'duplicate_number', message: expect.stringContaining(second.body.id) }],
    });

    // A batch's entries carry their own warnings, although they are submitted side by side: each repeat names the
    // entry accepted just before it; an entry with another number is not held up by them.
    const batch = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: [
        { ...invoice, number: 'INV-DUP-2' },
        { ...invoice, number: 'INV-DUP-2' },
        { ...invoice, number: 'INV-DUP-3' },
        { ...invoice, number: 'INV-DUP-2' },
      ],
    });
    expect(batch.status).toBe(202);
    expect(batch.body.map((entry: { warnings: unknown[] }) => entry.warnings.length)).toEqual([0, 1, 0, 1]);
    expect(batch.body[1].warnings).toEqual([
      { code: 'duplicate_number', path: 'number', message: expect.stringContaining(batch.body[0].id) },
    ]);
    expect(batch.body[3].warnings).toEqual([
      { code: 'duplicate_number', path: 'number', message: expect.stringContaining(batch.body[1].id) },
    ]);
  });

  it('when the company is not the caller’s, then 403; an unknown document is 404; a live key is refused until verified', async () => {
    const [sender, stranger] = [await sendingAccount(), await signUp('stranger')];
    const body = withRecipient(fixture('standard rate S'), recipient(), sender.companyId);
    const foreign = await callAs(stranger.key, '/v1/documents', { method: 'POST', body });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: 'not_company_member', param: 'company_id' });
    expect((await callAs(stranger.key, `/v1/documents?company_id=${sender.companyId}`)).status).toBe(403);
    expect(
      (await callAs(sender.key, '/v1/documents', { method: 'POST', body: { ...body, company_id: undefined } })).body
        .error,
    ).toMatchObject({
      code: 'missing_field',
      param: 'company_id',
    });

    const posted = await callAs(sender.key, '/v1/documents', { method: 'POST', body });
    expect((await callAs(stranger.key, `/v1/documents/${posted.body.id}/history`)).status).toBe(404);
    expect((await callAs(stranger.key, `/v1/documents/${posted.body.id}?company_id=${sender.companyId}`)).status).toBe(
      403,
    );
    expect((await callAs(sender.key, '/v1/documents/doc_000000000000000000000000/ubl')).body.error.code).toBe(
      'document_not_found',
    );

    const live = await callAs(sender.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false } });
    const refused = await callAs(live.body.api_key, '/v1/documents', { method: 'POST', body, host: 'live.localhost' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'workspace_not_verified',
      message: expect.stringContaining('not verified for live sending'),
    });
  });

  it('when a batch is posted, then each document is processed on its own and answered in order', async () => {
    const sender = await sendingAccount();
    const good = withRecipient(fixture('standard rate S'), recipient(), sender.companyId);
    const response = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: [
        good,
        { ...good, buyer_reference: undefined, order_reference: undefined },
        { ...good, number: 'INV-2', idempotency_key: 'b-2' },
      ],
    });
    expect(response.status).toBe(202);
    expect(response.body).toHaveLength(3);
    expect(response.body[0]).toMatchObject({ id: expect.stringMatching(/^doc_/), status: 'queued' });
    expect(response.body[1].error).toMatchObject({ code: 'document_invalid' });
    expect(response.body[2]).toMatchObject({ id: expect.stringMatching(/^doc_/), status: 'queued' });

    const tooMany = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: Array.from({ length: 101 }, () => good),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe('batch_too_large');
    const mixed = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: [good, { ...good, company_id: 'com_000000000000000000000000' }],
    });
    // Refused whole, as the operation's description says: no entry is processed.
    expect([mixed.status, mixed.body.error]).toEqual([
      400,
      expect.objectContaining({ code: 'invalid_field', param: '[].company_id' }),
    ]);
  });

  it('when documents are listed, then pages come newest first without repeats, and the status filter applies', async () => {
    const sender = await sendingAccount();
    const good = withRecipient(fixture('standard rate S'), recipient(), sender.companyId);
    const batch = await callAs(sender.key, '/v1/documents/batch', {
      method: 'POST',
      body: Array.from({ length: 7 }, (_, i) => ({ ...good, number: `INV-${i}` })),
    });
    const ids: string[] = batch.body.map((entry: { id: string }) => entry.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; next_cursor: string | null } } = await callAs(
        sender.key,
        `/v1/documents?company_id=${sender.companyId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((document) => document.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    await waitForStatus(sender.key, ids[6]!, sender.companyId, ['delivered']);
    const delivered = await callAs(
      sender.key,
      `/v1/documents?company_id=${sender.companyId}&status=delivered&limit=100`,
    );
    expect(delivered.body.data.every((document: { status: string }) => document.status === 'delivered')).toBe(true);
    expect(
      (await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}&limit=101`)).body.error,
    ).toMatchObject({ code: 'invalid_field', param: 'limit' });
    expect(
      (await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}&status=lost`)).body.error,
    ).toMatchObject({ code: 'invalid_field', param: 'status' });
  });

  it('when a document has attachments, then they are embedded in the UBL and downloadable with their content type', async () => {
    const sender = await sendingAccount();
    const body = withRecipient(fixture('attachments'), recipient(), sender.companyId);
    const posted = await callAs(sender.key, '/v1/documents', { method: 'POST', body });
    const listed = await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments`);
    expect(
      listed.body.data.map((attachment: { filename: string; mime_type: string }) => [
        attachment.filename,
        attachment.mime_type,
      ]),
    ).toEqual([
      ['timesheet-2026-11.csv', 'text/csv'],
      ['logo.png', 'image/png'],
    ]);
    const csv = await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments/${listed.body.data[0].id}`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text).toBe('date;hours\r\n2026-11-03;8\r\n');
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered']);
    const ubl = (await callAs(sender.key, `/v1/documents/${posted.body.id}/ubl`)).text;
    expect(ubl).toContain(`<cbc:ID>${listed.body.data[0].id}</cbc:ID>`);
    expect(ubl).toContain('mimeCode="text/csv" filename="timesheet-2026-11.csv"');
    expect(
      (await callAs(sender.key, `/v1/documents/${posted.body.id}/attachments/att_000000000000000000000000`)).status,
    ).toBe(404);
  });

  it('when a document is validated, then the verdict and the UBL come back and nothing is stored or sent', async () => {
    const sender = await sendingAccount();
    const body = withRecipient(fixture('several S rates'), recipient(), sender.companyId);
    const valid = await callAs(sender.key, '/v1/documents/validate', { method: 'POST', body });
    expect(valid.status).toBe(200);
    expect(valid.body).toMatchObject({
      valid: true,
      violations: [],
      official: { errors: [] },
      totals: { payable: '1480.71' },
    });
    expect(valid.body.official.rule_set).toMatch(/^eu\.peppol\.bis3:/);
    expect(valid.body.ubl).toContain('<cbc:PayableAmount currencyID="EUR">1480.71</cbc:PayableAmount>');
    const invalid = await callAs(sender.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...body, buyer_reference: undefined, order_reference: undefined },
    });
    // Refused by meaning, its totals still come (the app's form shows them as it is filled in); a wrong shape has none.
    expect(invalid.body).toMatchObject({
      valid: false,
      ubl: null,
      official: null,
      violations: [{ path: 'buyer_reference', rule: 'PEPPOL-EN16931-R003' }],
      totals: { payable: '1480.71' },
    });
    const shapeless = await callAs(sender.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...body, lines: [{ description: 'x', quantity: 'many', unit_price: '1', tax_rate: 21 }] },
    });
    expect(shapeless.body).toMatchObject({
      valid: false,
      totals: null,
      violations: [expect.objectContaining({ path: 'lines[0].quantity' })],
    });
    // Past our checks, the official rules have the last word, as before sending.
    const lines = ((body as Record<string, unknown>).lines as Record<string, unknown>[]).map((line) => ({
      ...line,
      unit: 'QQQ',
    }));
    const officiallyRefused = await callAs(sender.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...body, lines },
    });
    expect(officiallyRefused.body).toMatchObject({ valid: false, violations: [] });
    expect(officiallyRefused.body.official.errors.map((error: { rule: string }) => error.rule)).toContain('BR-CL-23');
    expect((await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data).toEqual([]);
  });

  it('when the request stops after its Update-with-Start reached Temporal and before the answer (the API killed), then the document is recorded and delivered once, and the same key answers 200 with it', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    const acceptance = await partsStoredAsTheApiDoes(sender, email, { idempotencyKey: 'order-killed' });
    await withTemporal(async (client) => {
      // Accepted by the workflow, then the connection dropped: no answer is ever read.
      await client.workflow.startUpdateWithStart(ACCEPT_UPDATE, {
        updateId: ACCEPT_UPDATE,
        waitForStage: WorkflowUpdateStage.ACCEPTED,
        startWorkflowOperation: new WithStartWorkflowOperation('sendDocumentWorkflow', {
          taskQueue: TASK_QUEUE,
          workflowId: sendWorkflowId(acceptance.row._id),
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          args: [{ documentId: acceptance.row._id, acceptance, deliveryWindowSeconds: 600 }],
        }),
      });
    });
    const body = withRecipient(fixture('standard rate S'), email, sender.companyId);
    const repeated = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body,
      headers: { 'Idempotency-Key': 'order-killed' },
    });
    expect({ status: repeated.status, id: repeated.body.id }).toEqual({ status: 200, id: acceptance.row._id });
    expect(await waitForStatus(sender.key, acceptance.row._id, sender.companyId, ['delivered'])).toMatchObject({
      status: 'delivered',
    });
    expect(await inboxFor(email)).toHaveLength(1);
    expect((await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`)).body.data).toHaveLength(1);
  });

  it('when a document is accepted, then its 202 comes after it is recorded: read at once, it is there with its queued step', async () => {
    const sender = await sendingAccount();
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: withRecipient(fixture('standard rate S'), recipient(), sender.companyId),
    });
    expect(posted.status).toBe(202);
    const [read, history] = await Promise.all([
      callAs(sender.key, `/v1/documents/${posted.body.id}?company_id=${sender.companyId}`),
      callAs(sender.key, `/v1/documents/${posted.body.id}/history`),
    ]);
    expect(read.status).toBe(200);
    expect(history.body.map((entry: { step: string }) => entry.step)).toEqual(['created', 'validated', 'queued']);
  });

  it('when the same acceptance is started ten times at once (a retried call), then one workflow run records it, every call gets the same answer and it is delivered once', async () => {
    const sender = await sendingAccount();
    const email = recipient();
    const acceptance = await partsStoredAsTheApiDoes(sender, email);
    const answers = await withTemporal((client) =>
      Promise.all(
        Array.from({ length: 10 }, () => acceptBySendWorkflow(client, acceptance, { sandbox: 600, live: 600 })),
      ),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([JSON.stringify({ outcome: 'accepted', documentId: acceptance.row._id, balanceUnits: null })]),
    );
    const runs = await withTemporal(async (client) => {
      const found = [];
      for await (const run of client.workflow.list({ query: `WorkflowId = "${sendWorkflowId(acceptance.row._id)}"` }))
        found.push(run);
      return found;
    });
    expect(runs).toHaveLength(1);
    expect(await waitForStatus(sender.key, acceptance.row._id, sender.companyId, ['delivered'])).toMatchObject({
      status: 'delivered',
    });
    expect(await inboxFor(email)).toHaveLength(1);
  });

  it('when a request stored its parts and died before starting its workflow, then the clean-up removes them after the grace, and leaves a recorded document’s parts', async () => {
    const sender = await sendingAccount();
    const longAgo = Date.now() - UNACCEPTED_PARTS_GRACE_MS - 60_000;
    const orphan = await partsStoredAsTheApiDoes(sender, recipient(), { at: longAgo });
    const recorded = await partsStoredAsTheApiDoes(sender, recipient(), { at: longAgo });
    const fresh = await partsStoredAsTheApiDoes(sender, recipient());
    await withStore(async (store) => {
      await store.documents.create({ ...recorded.row, created_at: new Date(longAgo), updated_at: new Date(longAgo) });
      expect(await discardUnacceptedParts(store)).toBeGreaterThanOrEqual(1);
      const left = await store.contents
        .find({ _id: { $in: [orphan.row._id, recorded.row._id, fresh.row._id] } }, { _id: 1 })
        .lean();
      expect(left.map(({ _id }) => _id).sort()).toEqual([recorded.row._id, fresh.row._id].sort());
      await store.contents.deleteOne({ _id: fresh.row._id });
    });
  });
});
