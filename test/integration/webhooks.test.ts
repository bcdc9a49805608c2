import { createHmac } from 'node:crypto';

import { Client, Connection } from '@temporalio/client';
import request from 'supertest';

import { createApp } from '../../api/public/app';
import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { loadConfig } from '../../platform/config';
import { connectDatabase } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { officialValidator } from '../../platform/official-validator';
import { attemptDelivery } from '../../services/webhooks/attempt';
import { usageCounters } from '../../services/usage';
import { createStore } from '../../store';
import { validFixtures } from '../fixtures/documents';
import { callAs, signUp, withStore } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';
import { registerWebhook, receiversOfThisFile, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhooks against a real HTTP receiver on the shared stack (which allows
 * loopback targets and retries after 1 s, doubling): signatures byte for
 * byte, rotation, retries, the dead-letter queue and redelivery, redirects,
 * the timeout, isolation; and the address rules with them switched on.
 */

const hmac = (secret: string, payload: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(payload, 'utf8').digest('hex');

describe('webhooks', () => {
  const receiver = receiversOfThisFile();

  const deliveries = async (key: string, webhookId: string, query = '') =>
    (await callAs(key, `/v1/webhooks/${webhookId}/deliveries?limit=100${query}`)).body.data;

  it('when a document is delivered, then each subscribed event arrives signed exactly as the spec says', async () => {
    const sender = await sendingAccount();
    const hooks = await receiver();
    const webhook = await registerWebhook(sender.key, hooks.url, ['document.queued', 'document.delivered']);
    expect(webhook.secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    await waitForStatus(sender.key, posted.body.id, sender.companyId, ['delivered']);
    const arrived = await hooks.waitFor(2);
    expect(arrived.map((request) => request.headers['x-peppol-event']).sort()).toEqual([
      'document.delivered',
      'document.queued',
    ]);
    for (const { headers, raw } of arrived) {
      const t = String(headers['x-peppol-timestamp']);
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-peppol-signature-v2']).toBe(`t=${t},v1=${hmac(webhook.secret, `${t}.${raw}`)}`);
      expect(headers['x-peppol-signature']).toBe(hmac(webhook.secret, raw));
      expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(60);
      expect(headers['x-peppol-delivery-id']).toMatch(/^whd_/);
      const body = JSON.parse(raw);
      expect(body).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: headers['x-peppol-event'],
        created_at: expect.any(String),
        data: expect.objectContaining({
          document_id: posted.body.id,
          company_id: sender.companyId,
          number: 'INV-2026-0042',
          error_message: null,
        }),
      });
    }
    // The same event, with the same id, is in the feed.
    const delivered = JSON.parse(
      arrived.find((request) => request.headers['x-peppol-event'] === 'document.delivered')!.raw,
    );
    const feed = await until(
      'the feed',
      () => callAs(sender.key, `/v1/events?document_id=${posted.body.id}`),
      (response) => response.body.data.length === 3,
      10_000,
    );
    expect(feed.body.data[2]).toEqual(delivered);
  });

  it('when a batch of documents is sent, then each document.queued arrives once, the webhooks being read once for the batch', async () => {
    const sender = await sendingAccount();
    const hooks = await receiver();
    const webhook = await registerWebhook(sender.key, hooks.url, ['document.queued']);
    const body = ['B-1', 'B-2', 'B-3'].map((number) => ({
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      number,
    }));
    const batch = await callAs(sender.key, '/v1/documents/batch', { method: 'POST', body });
    expect(batch.status).toBe(202);
    const arrived = await hooks.waitFor(3);
    // A succeeded delivery is never attempted again, so once the service reports all three succeeded, the requests
    // it made are all in: one attempt each, and no more requests than that.
    const settled = await until(
      'three deliveries succeeded',
      () => deliveries(sender.key, webhook.id),
      (list) => list.length >= 3 && list.every((delivery: { status: string }) => delivery.status === 'succeeded'),
    );
    expect(settled.map((delivery: { attempts: unknown[] }) => delivery.attempts.length)).toEqual([1, 1, 1]);
    expect(hooks.received).toHaveLength(3);
    const documentIds = arrived.map(
      (request) => (JSON.parse(request.raw) as { data: { document_id: string } }).data.document_id,
    );
    expect(documentIds.sort()).toEqual(batch.body.map((entry: { id: string }) => entry.id).sort());
  });

  it('when the secret is rotated, then V2 carries both secrets newest first and the legacy header the new one; a second rotation drops the oldest', async () => {
    const account = await signUp();
    const hooks = await receiver();
    const webhook = await registerWebhook(account.key, hooks.url);
    const first = webhook.secret;
    const rotated = await callAs(account.key, `/v1/webhooks/${webhook.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const second: string = rotated.body.secret;
    expect(second).not.toBe(first);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const [afterOne] = await hooks.waitFor(1);
    const t1 = String(afterOne!.headers['x-peppol-timestamp']);
    expect(afterOne!.headers['x-peppol-signature-v2']).toBe(
      `t=${t1},v1=${hmac(second, `${t1}.${afterOne!.raw}`)},v1=${hmac(first, `${t1}.${afterOne!.raw}`)}`,
    );
    expect(afterOne!.headers['x-peppol-signature']).toBe(hmac(second, afterOne!.raw));
    expect(JSON.parse(afterOne!.raw)).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhook.id } });

    const third: string = (await callAs(account.key, `/v1/webhooks/${webhook.id}/rotate-secret`, { method: 'POST' }))
      .body.secret;
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const afterTwo = (await hooks.waitFor(2))[1]!;
    const t2 = String(afterTwo.headers['x-peppol-timestamp']);
    expect(afterTwo.headers['x-peppol-signature-v2']).toBe(
      `t=${t2},v1=${hmac(third, `${t2}.${afterTwo.raw}`)},v1=${hmac(second, `${t2}.${afterTwo.raw}`)}`,
    );
    // Never shown again, never stored in the clear.
    const read = await callAs(account.key, `/v1/webhooks/${webhook.id}`);
    expect(JSON.stringify(read.body)).not.toMatch(/whsec_/);
    const row = await withStore((store) => store.webhooks.findById(webhook.id).lean());
    expect(JSON.stringify(row)).not.toContain(third);
    expect(row!.secrets).toHaveLength(2);
  });

  it('when the receiver fails twice, then the same delivery id comes back with backoff until it succeeds, every attempt listed', async () => {
    const account = await signUp();
    const hooks = (await receiver()).answer({ status: 500 }, { status: 503 });
    const webhook = await registerWebhook(account.key, hooks.url);
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const arrived = await hooks.waitFor(3);
    expect(new Set(arrived.map((request) => request.headers['x-peppol-delivery-id'])).size).toBe(1);
    expect(new Set(arrived.map((request) => request.raw)).size).toBe(1);
    expect(arrived[1]!.at - arrived[0]!.at).toBeGreaterThanOrEqual(900);
    expect(arrived[2]!.at - arrived[1]!.at).toBeGreaterThanOrEqual(1_800);
    const [delivery] = await until(
      'success recorded',
      () => deliveries(account.key, webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery.id).toBe(arrived[0]!.headers['x-peppol-delivery-id']);
    expect(delivery.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([500, 503, 200]);
  });

  it('when all 5 attempts fail, then the delivery is failed in the dead-letter queue, and a redelivery sends it again under the same id', async () => {
    const account = await signUp();
    // The redelivery's attempt is answered late: the delivery is still underway when it is redelivered again (409).
    const hooks = (await receiver()).answer(...Array.from({ length: 5 }, () => ({ status: 500 })), {
      delayMs: 3_000,
      status: 200,
    });
    const webhook = await registerWebhook(account.key, hooks.url);
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const [failed] = await until(
      'the dead-letter queue',
      () => deliveries(account.key, webhook.id, '&status=failed'),
      (list) => list.length === 1,
    );
    expect(failed.attempts).toHaveLength(5);
    expect(hooks.received).toHaveLength(5);
    const redelivered = await callAs(account.key, `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`, {
      method: 'POST',
    });
    expect(redelivered.status).toBe(202);
    expect(
      (await callAs(account.key, `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`, { method: 'POST' }))
        .status,
    ).toBe(409);
    const arrived = await hooks.waitFor(6);
    expect(arrived[5]!.headers['x-peppol-delivery-id']).toBe(failed.id);
    expect(arrived[5]!.raw).toBe(arrived[0]!.raw);
    await until(
      'redelivered',
      () => deliveries(account.key, webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    // Succeeded, it can be wanted again (a receiver that lost it): the same id once more.
    expect(
      (await callAs(account.key, `/v1/webhooks/${webhook.id}/deliveries/${failed.id}/redeliver`, { method: 'POST' }))
        .status,
    ).toBe(202);
    expect((await hooks.waitFor(7))[6]!.headers['x-peppol-delivery-id']).toBe(failed.id);
  }, 90_000);

  it('when the receiver redirects, then the redirect is not followed and the attempt counts as failed', async () => {
    const account = await signUp();
    const elsewhere = await receiver();
    const hooks = (await receiver()).answer({ redirectTo: elsewhere.url });
    const webhook = await registerWebhook(account.key, hooks.url);
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    await hooks.waitFor(2);
    const [delivery] = await until(
      'success after the redirect',
      () => deliveries(account.key, webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 307,
      error: expect.stringContaining('redirects are not followed'),
    });
    expect(elsewhere.received).toEqual([]);
  });

  it('when the receiver does not answer within 10 seconds, then the attempt ends as a timeout and the next one is made', async () => {
    const account = await signUp();
    const hooks = (await receiver()).answer({ delayMs: 15_000, status: 200 });
    const webhook = await registerWebhook(account.key, hooks.url);
    await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const [delivery] = await until(
      'success after a timeout',
      () => deliveries(account.key, webhook.id),
      (list) => list[0]?.status === 'succeeded',
      40_000,
    );
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('timeout') });
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(9_900);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(12_000);
  }, 60_000);

  it('when events name unknown kinds, then 400 naming them; another workspace sees none of the webhook', async () => {
    const [owner, stranger] = [await signUp(), await signUp()];
    const refused = await callAs(owner.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/x', events: ['document.delivered', 'document.lost', 'invoice.paid'] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('document.lost, invoice.paid');
    const webhook = await registerWebhook(owner.key, 'http://127.0.0.1:9/x');
    for (const [method, path] of [
      ['GET', `/v1/webhooks/${webhook.id}`],
      ['PATCH', `/v1/webhooks/${webhook.id}`],
      ['DELETE', `/v1/webhooks/${webhook.id}`],
      ['POST', `/v1/webhooks/${webhook.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${webhook.id}/test`],
      ['GET', `/v1/webhooks/${webhook.id}/deliveries`],
      ['POST', `/v1/webhooks/${webhook.id}/deliveries/whd_0000000000000000000000000/redeliver`],
    ] as const) {
      const response = await callAs(stranger.key, path, {
        method,
        ...(method === 'PATCH' && { body: { enabled: false } }),
      });
      expect([path, response.status, response.body.error.code]).toEqual([path, 404, 'webhook_not_found']);
    }
    expect((await callAs(stranger.key, '/v1/webhooks')).body.data).toEqual([]);
    const audit = (await callAs(owner.key, `/v1/workspaces/${owner.workspaceId}/audit`)).body.data.map(
      (event: { action: string }) => event.action,
    );
    expect(audit).toContain('webhook.created');
  });

  it('when a webhook is changed and deleted, then it is audited and nothing more is sent to it', async () => {
    const account = await signUp();
    const hooks = await receiver();
    const webhook = await registerWebhook(account.key, hooks.url);
    expect(
      (
        await callAs(account.key, `/v1/webhooks/${webhook.id}`, {
          method: 'PATCH',
          body: { events: ['document.failed'], enabled: true },
        })
      ).body,
    ).toMatchObject({
      events: ['document.failed'],
    });
    expect((await callAs(account.key, `/v1/webhooks/${webhook.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await callAs(account.key, `/v1/webhooks/${webhook.id}`)).status).toBe(404);
    const audit = (await callAs(account.key, `/v1/workspaces/${account.workspaceId}/audit`)).body.data.map(
      (event: { action: string }) => event.action,
    );
    expect(audit).toEqual(expect.arrayContaining(['webhook.created', 'webhook.updated', 'webhook.deleted']));
  });
});

describe('webhook targets, with the address rules on', () => {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
    LIVE_HOSTS: 'live.localhost',
  });
  const logger = createLogger('silent', 'test');
  const box = new SecretBox(newSecretKey());
  let close: () => Promise<void>;
  let app: ReturnType<typeof createApp>;
  let temporal: Connection;

  beforeAll(async () => {
    const db = await connectDatabase(sharedStack().mongodbUri);
    temporal = await Connection.connect({ address: sharedStack().temporalAddress });
    const store = createStore(db);
    app = createApp({
      config,
      logger,
      store,
      temporal: new Client({ connection: temporal }),
      probes: {
        db: () => Promise.resolve(true),
        temporal: () => Promise.resolve(true),
        validator: () => Promise.resolve(undefined),
      },
      usage: usageCounters(store, logger),
      secretBox: box,
      kycBox: new SecretBox(newSecretKey()),
      validator: officialValidator(sharedStack().validatorUrl),
    });
    close = () => db.close();
  });
  afterAll(async () => {
    await close();
    await temporal.close();
  });

  it('when a webhook would reach this host, a private, link-local, site-local or metadata address, by literal (IPv4 inside IPv6 too) or by name, then 400 webhook_url_not_allowed', async () => {
    const account = await signUp();
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'http://10.0.0.5/hook',
      'http://100.64.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:127.0.0.1]/hook',
      // IPv4 carried in IPv6: IPv4-compatible, NAT64 local-use, 6to4, Teredo (client inverted); and site-local.
      'https://[::a9fe:a9fe]/latest/meta-data',
      'https://[::127.0.0.1]/hook',
      'https://[64:ff9b:1::a9fe:a9fe]/hook',
      'https://[2002:a9fe:a9fe::1]/hook',
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
      'https://[fec0::1]/hook',
      'http://localhost:3000/hook',
      'http://user:pass@example.com/hook',
      'ftp://example.com/hook',
    ]) {
      const response = await request(app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${account.key}`)
        .send({ url, events: ['*'] });
      expect([url, response.status, response.body.error?.code]).toEqual([url, 400, 'webhook_url_not_allowed']);
    }
  });

  it('when a live webhook uses http:, then it is refused', async () => {
    const account = await signUp();
    const live = await callAs(account.key, '/v1/account/keys', { method: 'POST', body: { sandbox: false } });
    const response = await request(app)
      .post('/v1/webhooks')
      .set('Host', 'live.localhost')
      .set('Authorization', `Bearer ${live.body.api_key}`)
      .send({ url: 'http://93.184.216.34/hook', events: ['*'] });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain('https:');
  });

  it('when an attempt finds the target resolving to a forbidden address, then it sends nothing and records why; one not due sends and records nothing', async () => {
    const account = await signUp();
    const hooks = new WebhookReceiver();
    await hooks.start();
    try {
      // Registered while loopback was allowed (as if DNS pointed elsewhere then), attempted with the rules on.
      const webhook = (
        await callAs(account.key, '/v1/webhooks', {
          method: 'POST',
          body: { url: hooks.url.replace('127.0.0.1', 'localhost'), events: ['*'], enabled: false },
        })
      ).body;
      const deliveryId = await withStore(async (store) => {
        await store.webhooks.updateOne({ _id: webhook.id }, { $set: { enabled: true } });
        // Due in an hour: the endpoint's workflow leaves it alone while the test attempts it.
        const row = {
          _id: `whd_${Date.now().toString(36).padStart(10, '0')}SSRFtest${String(Math.random()).slice(2, 8)}`,
          dedupe_key: `ssrf:${webhook.id}`,
          webhook_id: webhook.id,
          workspace_id: account.workspaceId,
          event_id: 'evt_x',
          event_type: 'webhook.test',
          body: '{}',
          status: 'pending' as const,
          next_attempt_at: new Date(Date.now() + 3_600_000),
          round_attempts: 0,
          attempt_count: 0,
          created_at: new Date(),
          updated_at: new Date(),
        };
        await store.deliveries.create(row);
        return row._id;
      });
      // Not due yet: an attempt run again after its workflow task was redone sends nothing and records nothing.
      expect(
        await withStore((store) => attemptDelivery(store, box, { allowPrivate: false }, 1_000, deliveryId)),
      ).toEqual({ kind: 'settled', reason: expect.stringContaining('is not due until') });
      // Due (an hour on): the target is refused before anything is signed, so any key will do here.
      const outcome = await withStore((store) =>
        attemptDelivery(store, box, { allowPrivate: false }, 1_000, deliveryId, new Date(Date.now() + 3_600_001)),
      );
      expect(outcome).toEqual({
        kind: 'failed',
        error: expect.stringContaining('target not allowed: localhost resolves to 127.0.0.1'),
      });
      expect(hooks.received).toEqual([]);
      const attempts = await withStore((store) => store.deliveryAttempts.find({ delivery_id: deliveryId }).lean());
      expect(attempts).toEqual([
        expect.objectContaining({
          number: 1,
          outcome: 'failed',
          status_code: null,
          error: expect.stringContaining('target not allowed'),
        }),
      ]);
    } finally {
      await hooks.stop();
    }
  });
});
