import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';

import type { StackConfig } from '../../stack/config';
import { startStack, type EmbeddedStack } from '../../stack/embedded-stack';
import { belgianSeller, validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { ControlledSmtp } from '../support/controlled-smtp';
import { callApi } from '../support/http';
import { isolatedStackConfig, sharedStack } from '../support/test-stack';
import { until } from '../support/until';

/**
 * Room for what the first test waits through on a loaded machine: the killed attempt's heartbeat timeout (15 s),
 * the worker's restart and the retry's backoff, all inside one window.
 */
const WINDOW_SECONDS = 120;

const REFUSED = 'refused@example.com';

/**
 * A stack of its own, because these tests stop the mail server and kill the
 * worker and the database. Its SMTP server is one the test controls (it goes away, comes back,
 * stalls, refuses one recipient for good). What happens when the delivery
 * window runs out is the workflow tests' (test/workflows), in seconds.
 */
describe('delivery when SMTP or the worker fail', () => {
  let config: StackConfig;
  let stack: EmbeddedStack;
  let key: string;
  let companyId: string;
  const smtp = new ControlledSmtp(REFUSED);

  const baseUrl = () => stack.urls.api!;
  const post = (email: string) =>
    callAs(key, '/v1/documents', {
      baseUrl: baseUrl(),
      method: 'POST',
      body: {
        ...validFixtures[0]!.body,
        company_id: companyId,
        to: { ...(validFixtures[0]!.body.to as object), email },
      },
    });
  const documentOf = async (id: string) =>
    (await callAs(key, `/v1/documents/${id}?company_id=${companyId}`, { baseUrl: baseUrl() })).body;
  const stopMail = () => smtp.stop();
  const startMail = () => smtp.start();

  beforeAll(async () => {
    await smtp.start();
    // Polling a document for a minute or more would run into the default 60 requests per minute.
    config = await isolatedStackConfig({
      DELIVERY_WINDOW_SECONDS: String(WINDOW_SECONDS),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      // The shared stack's validator: this stack is about mail, and one JVM less starts.
      VALIDATOR_URL: sharedStack().validatorUrl,
      RATE_LIMIT_SANDBOX: '100000',
    });
    stack = await startStack({ config });
    const signup = await callApi('/v1/signup', {
      baseUrl: baseUrl(),
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'failures@example.com' }),
    });
    key = signup.body.api_key;
    companyId = (await callAs(key, '/v1/companies', { baseUrl: baseUrl(), method: 'POST', body: { ...belgianSeller } }))
      .body.id;
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    await smtp.stop();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  it('when SMTP is down and the worker is killed mid-send, then after both return the document is delivered with one email', async () => {
    await stopMail();
    const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
    const posted = await post(email);
    expect(posted.status).toBe(202);
    await until(
      'the send to start',
      () => documentOf(posted.body.id),
      (document) => document.status === 'sending',
    );

    const worker = stack.process('worker')!;
    const restarted = stack.restarted('worker');
    worker.signal('SIGKILL');
    await worker.exited;
    await startMail();
    await restarted;

    const delivered = await until(
      'delivery',
      () => documentOf(posted.body.id),
      (document) => ['delivered', 'failed'].includes(document.status),
      WINDOW_SECONDS * 1000,
    );
    expect(delivered).toMatchObject({ status: 'delivered', error_message: null });
    const messages = smtp.messagesTo(email);
    expect(messages.length).toBeGreaterThanOrEqual(1);
    // A second copy is possible only after a crash between SMTP acceptance and the record, and then carries the same Message-ID.
    expect(new Set(messages.map((message) => message.messageId))).toEqual(
      new Set([`${posted.body.id}@einvoice.localhost`]),
    );
    expect(messages[0]!.raw).toContain('INV-2026-0042.xml');
  }, 300_000);

  it('when the mail server stalls, then the attempt gives up well before its time is up and the next one never overlaps it: one email', async () => {
    const email = `slow-${randomBytes(4).toString('hex')}@example.com`;
    smtp.stallNextMessageTo(email, 70_000);
    const openedBefore = smtp.sessions.length;
    const posted = await post(email);
    const delivered = await until(
      'delivery',
      () => documentOf(posted.body.id),
      (document) => ['delivered', 'failed'].includes(document.status),
      90_000,
    );
    expect(delivered.error_message).toBeNull();
    expect(delivered.status).toBe('delivered');
    expect(smtp.messagesTo(email)).toHaveLength(1);
    // The stalled session was closed by the client before the next one opened.
    const sessions = smtp.sessions.slice(openedBefore).sort((a, b) => a.openedAt - b.openedAt);
    for (let i = 1; i < sessions.length; i += 1) expect(sessions[i - 1]!.closedAt).not.toBeNull();
    for (let i = 1; i < sessions.length; i += 1)
      expect(sessions[i]!.openedAt).toBeGreaterThanOrEqual(sessions[i - 1]!.closedAt!);
    const history = (await callAs(key, `/v1/documents/${posted.body.id}/history`, { baseUrl: baseUrl() })).body;
    expect(history.filter((entry: { step: string }) => entry.step === 'retry')).toEqual([
      expect.objectContaining({ attempt: 1, error_message: expect.stringMatching(/timeout/i) }),
    ]);
  }, 120_000);

  it('when the database goes down right after the mail server accepted, then that attempt still counts: the document is delivered with one email', async () => {
    const email = `accepted-${randomBytes(4).toString('hex')}@example.com`;
    const held = smtp.holdNextMessageTo(email);
    const posted = await post(email);
    await held.arrived;
    const database = stack.process('ferretdb')!;
    const restarted = stack.restarted('ferretdb');
    // Frozen, the database takes the attempt's note of the 250 and answers nothing; killed, it drops the note.
    database.signal('SIGSTOP');
    held.release();
    await until(
      'the 250',
      () => Promise.resolve(smtp.messagesTo(email).length),
      (count) => count === 1,
    );
    // The worker closes its mail session right after the 250 and then notes it: once every session is closed,
    // the note is on its way to the frozen database.
    await until(
      'the mail session closed',
      () => Promise.resolve(smtp.sessions),
      (sessions) => sessions.every((session) => session.closedAt !== null),
      10_000,
    );
    database.signal('SIGKILL');
    await restarted;

    const delivered = await until(
      'delivery',
      () => documentOf(posted.body.id),
      (document) => ['delivered', 'failed'].includes(document.status),
      90_000,
    );
    expect(delivered).toMatchObject({ status: 'delivered', error_message: null });
    // Failing the attempt for the lost note would have sent the message again.
    expect(smtp.messagesTo(email)).toHaveLength(1);
  }, 150_000);

  it('when the mail server refuses the recipient for good, then the document fails at once with its answer', async () => {
    const started = Date.now();
    const posted = await post(REFUSED);
    const failed = await until(
      'failure',
      () => documentOf(posted.body.id),
      (document) => ['delivered', 'failed'].includes(document.status),
    );
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toMatch(/^The mail server refused the message: .*550/);
    // Well inside the retry window: a permanent error is not retried.
    expect(Date.now() - started).toBeLessThan((WINDOW_SECONDS * 1000) / 2);
  }, 120_000);
});
