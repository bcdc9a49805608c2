import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';

import { newSortableId } from '../../domain/ids';
import { createLogger } from '../../platform/logger';
import { ValidationTimeLimitError, type OfficialValidator } from '../../platform/official-validator';
import { As4SendError } from '../../platform/peppol/access-point';
import { fileReceived } from '../../services/receiving/filing';
import { callAs, withStore } from '../support/accounts';
import { LIVE } from '../support/documents';
import { callApi } from '../support/http';
import { liveReceiver, sendToUs, ublTo } from '../support/receiving';
import { until } from '../support/until';
import { validatorLanes } from '../support/peppol-validator';
import { sharedStack } from '../support/test-stack';

/**
 * Receiving hardened (issue: Hardening III). Received documents inside the same bounds as everything else from outside:
 * measured before anything heavy reads them (a UBL nested 2,000 deep inside a
 * valid SBD is receipted, kept with that as its finding and never validated),
 * validated in the validator's lane for received documents (never a send's
 * permits), and one whose validation reaches the time limit is kept with that
 * as its finding instead of being tried for ever. A repeat of a message is the same
 * message id, sender, receiver and payload; the same id with anything else is refused.
 * The intake checks its token and the declared length before it reads a body.
 */

/** A valid invoice with 2,000 elements nested inside one of its notes: well within the size limit, far past the depth bound. */
const nestedDeep = (ubl: string, depth: number) =>
  ubl.replace('</cbc:Note>', `${'<Deep>'.repeat(depth)}${'</Deep>'.repeat(depth)}</cbc:Note>`);

describe('received documents within bounds', () => {
  it('when a UBL nested 2,000 deep arrives by AS4 in a valid SBD, then it is receipted and kept with that as its finding, never validated', async () => {
    const receiver = await liveReceiver();
    const ubl = nestedDeep(ublTo('standard rate S, one line', receiver.peppolId), 2_000);
    expect(ubl).toContain('<Deep><Deep>');
    const messageId = `deep-${Date.now()}@receiving-bounds`;
    const receipt = await sendToUs(ubl, receiver.peppolId, messageId);
    expect(receipt.messageId).toBeTruthy();

    const listed = await until(
      'the inbox',
      () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE }),
      (response) => response.body.data?.length === 1,
    );
    const document = await callAs(
      receiver.liveKey,
      `/v1/documents/${listed.body.data[0].id}?company_id=${receiver.companyId}`,
      { host: LIVE },
    );
    expect(document.body).toMatchObject({ type: 'other', status: 'received', rule_set: null });
    expect(document.body.received.validation).toMatchObject({
      valid: false,
      rule_set: null,
      errors: [{ rule: 'xml_too_complex', message: expect.stringContaining('nested deeper than 64') }],
    });
    expect(document.body.received).toMatchObject({
      json_view: null,
      json_view_problem: expect.stringContaining('nested deeper than 64'),
    });
    // Nor is it rendered: measured before the renderer sees it.
    const pdf = await callAs(receiver.liveKey, `/v1/documents/${listed.body.data[0].id}/pdf`, { host: LIVE });
    expect(pdf.status).toBe(422);
    expect(pdf.body.error).toMatchObject({
      code: 'document_not_renderable',
      message: expect.stringContaining('nested deeper than 64'),
    });
  });

  it('when a document is received, then the validator judges it in the lane for received documents, not the send lane', async () => {
    const before = await validatorLanes();
    expect(before.receive.permits).toBeGreaterThanOrEqual(1);
    const receiver = await liveReceiver();
    await sendToUs(
      ublTo('standard rate S, one line', receiver.peppolId),
      receiver.peppolId,
      `lane-${Date.now()}@receiving-bounds`,
    );
    await until(
      'the inbox',
      () => callAs(receiver.liveKey, `/v1/inbox?company_id=${receiver.companyId}`, { host: LIVE }),
      (response) => response.body.data?.length === 1,
    );
    const after = await validatorLanes();
    expect(after.receive.completed).toBeGreaterThan(before.receive.completed);
  });

  it('when the validation of a received document reaches its time limit, then the document is filed with that as its finding, not tried again', async () => {
    const receiver = await liveReceiver();
    const documentId = newSortableId('document', Date.now());
    const ubl = ublTo('standard rate S, one line', receiver.peppolId);
    let asked = 0;
    const slowValidator: OfficialValidator = {
      validate: (_xml, options) => {
        asked += 1;
        expect(options?.lane).toBe('receive');
        return Promise.reject(new ValidationTimeLimitError('stopped at its time limit', 60_000));
      },
      render: () => Promise.reject(new Error('not asked here')),
      ruleSet: () => Promise.resolve(undefined),
    };
    const filed = await withStore(async (store) => {
      await store.receivedMessages.create({
        _id: documentId,
        message_key: `sandbox:${documentId}`,
        message_id: `${documentId}@receiving-bounds`,
        source: 'sandbox',
        environment: 'live',
        company_id: receiver.companyId,
        workspace_id: receiver.workspaceId,
        sender_id: '0208:0123456749',
        receiver_id: receiver.peppolId,
        payload: Buffer.from(ubl),
        received_at: new Date(),
        // Filed by this test, not by a workflow.
        dispatched: true,
      });
      return fileReceived({ store, validator: slowValidator, logger: createLogger('silent', 'test') }, documentId);
    });
    expect(asked).toBe(1);
    expect(filed).toMatchObject({ type: 'invoice', valid: false, jsonView: true });
    const document = await callAs(receiver.liveKey, `/v1/documents/${documentId}?company_id=${receiver.companyId}`, {
      host: LIVE,
    });
    expect(document.body.received.validation.errors).toEqual([
      expect.objectContaining({
        rule: 'validation_time_limit',
        message: expect.stringContaining('did not finish within 60 s'),
      }),
    ]);
  });

  it('when a sandbox document carries a DOCTYPE, then it is refused as the public validator refuses it', async () => {
    const account = await liveReceiver();
    const ubl = ublTo('standard rate S, one line', account.peppolId).replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE Invoice [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/x.dtd"> %remote;]>',
    );
    expect(ubl).toContain('<!DOCTYPE');
    for (const [path, key] of [
      ['/v1/sandbox/inbound', account.key],
      ['/v1/ubl/validate', null],
    ] as const) {
      const answer = await callApi(path, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/xml',
          'X-Forwarded-For': `10.9.${Date.now() % 250}.1`,
          ...(key && { Authorization: `Bearer ${key}` }),
        },
        body: ubl,
      });
      expect({ path, status: answer.status, code: answer.body.error?.code }).toEqual({
        path,
        status: 400,
        code: 'invalid_xml',
      });
      expect(answer.body.error.message).toContain('DOCTYPE');
    }
  });

  it('when a message id used for a message to one company comes again for another, then it is refused with EBMS:0003: no receipt, nothing filed for the second, the first untouched', async () => {
    const [first, second] = await Promise.all([liveReceiver(), liveReceiver()]);
    const messageId = `reused-${Date.now()}@receiving-hardening`;
    await sendToUs(ublTo('standard rate S, one line', first.peppolId), first.peppolId, messageId);
    const again = sendToUs(ublTo('standard rate S, one line', second.peppolId), second.peppolId, messageId);
    await expect(again).rejects.toThrow(As4SendError);
    await expect(again).rejects.toThrow(/EBMS:0003/);
    // The same message again is a repeat: a receipt, nothing new.
    await expect(
      sendToUs(ublTo('standard rate S, one line', first.peppolId), first.peppolId, messageId),
    ).resolves.toMatchObject({ messageId });
    const stored = await withStore((store) =>
      store.receivedMessages.find({ message_id: messageId }, { company_id: 1 }).lean(),
    );
    expect(stored.map((row) => row.company_id)).toEqual([first.companyId]);
  });
});

describe('the intake reads no body before it knows who sends it and how much', () => {
  /** Headers only: the answer must come before any of the declared body is sent. */
  const answerBeforeBody = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const post = request(
        sharedStack().intakeUrl,
        { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } },
        (response) => {
          resolve(response.statusCode!);
          post.destroy();
        },
      );
      post.on('error', reject);
      post.flushHeaders();
    });

  it('when a request has no token, then 401 before its 21 MB body is read', async () => {
    expect(await answerBeforeBody({ 'Content-Length': String(21 * 1024 * 1024) })).toBe(401);
  });

  it('when our access point declares 300 MB, then 413 before any of it is read', async () => {
    const token = (await readFile(path.join(sharedStack().keysDir, 'inbound-token.key'), 'utf8')).trim();
    expect(
      await answerBeforeBody({ Authorization: `Bearer ${token}`, 'Content-Length': String(300 * 1024 * 1024) }),
    ).toBe(413);
  });
});
