import { createLogger } from '../../platform/logger';
import { disableFailingWebhook } from '../../services/webhooks/disabling';
import type { Store } from '../../store';
import { webhookEndpointWorkflowId } from '../../workflows/shared';
import { callAs, signUp, withStore } from '../support/accounts';
import { inboxFor } from '../support/documents';
import { ops } from '../support/ops';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';
import { registerWebhook, receiversOfThisFile } from '../support/webhook-receiver';

/**
 * Deliveries dispatched per endpoint on the shared stack (workflows/webhook-endpoint.ts): one workflow per
 * webhook, a bad endpoint holding only its own, each delivery readable by its id with its attempts, and a
 * webhook the service disables after its endpoint failed for the disable period.
 */
const DISABLE_AFTER_MS = 5 * 86_400_000;

describe('webhook deliveries per endpoint', () => {
  const temporal = sharedTemporalClient();
  const logger = createLogger('silent', 'test');
  const disablingDependencies = (store: Store) => ({
    store,
    logger,
    fanOut: { store, temporal: temporal(), retryInitialMs: 1_000, disableAfterMs: DISABLE_AFTER_MS, logger },
    smtpUrl: sharedStack().smtpUrl,
    mailFrom: 'E-invoice sandbox <sandbox@einvoice.localhost>',
  });
  const receiver = receiversOfThisFile();
  const sendTests = async (key: string, webhookId: string, count: number) => {
    for (let i = 0; i < count; i += 1)
      expect((await callAs(key, `/v1/webhooks/${webhookId}/test`, { method: 'POST' })).status).toBe(202);
  };

  it('when one endpoint hangs on every request beside a healthy one, then the healthy one\u2019s deliveries arrive at once while the hanging one has four requests in flight at most', async () => {
    const account = await signUp();
    const hanging = (await receiver()).answer(...Array.from({ length: 40 }, () => ({ delayMs: 15_000, status: 200 })));
    const healthy = await receiver();
    const bad = await registerWebhook(account.key, hanging.url);
    const good = await registerWebhook(account.key, healthy.url);
    try {
      // More deliveries for the hanging endpoint than the worker has webhook slots (16): per delivery, they would take them all.
      await sendTests(account.key, bad.id, 24);
      await hanging.waitFor(1);
      const asked = Date.now();
      await sendTests(account.key, good.id, 3);
      const arrived = await healthy.waitFor(3, 10_000);
      expect(arrived.every((request) => request.at - asked < 5_000)).toBe(true);
      // The hanging endpoint's workflow attempts four at a time at most, oldest first.
      expect(hanging.received.length).toBeLessThanOrEqual(4);
      const workflows = await Promise.all(
        [bad.id, good.id].map((id) => temporal().workflow.getHandle(webhookEndpointWorkflowId(id)).describe()),
      );
      expect(workflows.map((workflow) => workflow.status.name)).toEqual(['RUNNING', 'RUNNING']);
    } finally {
      // Deleted: its workflow ends at its next round, the requests in flight answered or timed out.
      await callAs(account.key, `/v1/webhooks/${bad.id}`, { method: 'DELETE' });
    }
  }, 60_000);

  it('when a delivery is read by its id, then its attempts show their outcome, the answer\u2019s start and when the next was due, and it names its endpoint\u2019s workflow', async () => {
    const account = await signUp();
    const hooks = (await receiver()).answer({ status: 503 });
    const webhook = await registerWebhook(account.key, hooks.url);
    const made = await callAs(account.key, `/v1/webhooks/${webhook.id}/test`, { method: 'POST' });
    const read = () => callAs(account.key, `/v1/webhooks/${webhook.id}/deliveries/${made.body.id}`);
    const delivery = (await until('the delivery succeeded', read, (response) => response.body.status === 'succeeded'))
      .body;
    expect(delivery).toMatchObject({
      id: made.body.id,
      status: 'succeeded',
      next_attempt_at: null,
      workflow_id: webhookEndpointWorkflowId(webhook.id),
    });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status_code: 503,
        response_excerpt: 'not now',
        error: 'answered 503',
        next_attempt_at: expect.any(String),
      }),
      expect.objectContaining({
        outcome: 'succeeded',
        status_code: 200,
        response_excerpt: 'ok',
        error: null,
        next_attempt_at: null,
      }),
    ]);
    // The second attempt came when the first said it was due (the stack's backoff starts at 1 s).
    expect(Date.parse(delivery.attempts[1].at)).toBeGreaterThanOrEqual(
      Date.parse(delivery.attempts[0].next_attempt_at),
    );
    expect(
      (await callAs(account.key, `/v1/webhooks/${webhook.id}/deliveries/whd_0000000000000000000000000`)).body.error,
    ).toMatchObject({ code: 'delivery_not_found', param: 'deliveryId' });

    // The operator finds it by its id too, with its endpoint's workflow and breaker.
    const shown = await ops('webhook', 'delivery', made.body.id);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(
        `^delivery  ${made.body.id}  webhook\\.test  evt_\\w+  to  ${webhook.id}  ${hooks.url}  \\(enabled\\)$`,
      ),
    );
    expect(lines[1]).toBe('status  succeeded  ');
    expect(lines[2]).toMatch(/^attempt 1 {2}\S+ {2}failed {5}503 {2}\d+ ms {2}answered 503 {2}"not now"$/);
    expect(lines[3]).toMatch(/^attempt 2 {2}\S+ {2}succeeded {2}200 {2}\d+ ms {4}"ok"$/);
    expect(lines[4]).toMatch(
      new RegExp(`^endpoint  ${webhookEndpointWorkflowId(webhook.id)}  running; breaker closed, 0 failed in a row$`),
    );
    expect(await ops('webhook', 'delivery', 'whd_0000000000000000000000000')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no webhook delivery whd_0000000000000000000000000'),
    });
  });

  it('when an endpoint has failed for the disable period, then the webhook is disabled saying why, its pending deliveries are dead letters, the workspace\u2019s other webhook gets webhook.disabled, the owner an email; enabled again, a redelivery goes', async () => {
    const account = await signUp();
    // Its one attempt hangs, then fails: the delivery is pending while the webhook is disabled.
    const failing = (await receiver()).answer({ delayMs: 3_000, status: 500 });
    const listening = await receiver();
    const broken = await registerWebhook(account.key, failing.url);
    const watcher = await registerWebhook(account.key, listening.url, ['webhook.disabled']);
    await sendTests(account.key, broken.id, 1);
    await failing.waitFor(1);
    // What the endpoint's workflow does once its breaker has seen five days of failures (time-skipping.test.ts runs those days).
    const failingSince = new Date(Date.now() - DISABLE_AFTER_MS);
    const disable = () =>
      withStore((store) =>
        disableFailingWebhook(disablingDependencies(store), broken.id, failingSince, DISABLE_AFTER_MS),
      );
    expect(await disable()).toBe(true);

    const webhook = (await callAs(account.key, `/v1/webhooks/${broken.id}`)).body;
    expect(webhook).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringContaining(
        `from ${failingSince.toISOString()} on; disabled after 5 days of failures`,
      ),
    });
    const [deadLetter] = (await callAs(account.key, `/v1/webhooks/${broken.id}/deliveries?status=failed`)).body.data;
    expect(deadLetter).toMatchObject({ status: 'failed', next_attempt_at: null });
    const [notice] = await listening.waitFor(1);
    expect(JSON.parse(notice!.raw)).toMatchObject({
      type: 'webhook.disabled',
      data: { webhook_id: broken.id, url: failing.url, failing_since: failingSince.toISOString() },
    });
    const feed = await until(
      'the event in the feed',
      () => callAs(account.key, '/v1/events?type=webhook.disabled'),
      (response) => response.body.data?.length === 1,
    );
    expect(feed.body.data[0].id).toBe(JSON.parse(notice!.raw).id);
    const [mail] = await until(
      'the owner told',
      () => inboxFor(account.email),
      (messages) => messages.some((message) => message.subject.startsWith('Webhook disabled')),
    );
    expect(mail).toBeDefined();
    // Told twice (the workflow's activity tried again): one event, one email.
    expect(await disable()).toBe(true);
    expect((await callAs(account.key, '/v1/events?type=webhook.disabled')).body.data).toHaveLength(1);
    expect(
      (await inboxFor(account.email)).filter((message) => message.subject.startsWith('Webhook disabled')),
    ).toHaveLength(1);

    const enabled = await callAs(account.key, `/v1/webhooks/${broken.id}`, {
      method: 'PATCH',
      body: { enabled: true },
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    expect(
      (await callAs(account.key, `/v1/webhooks/${broken.id}/deliveries/${deadLetter.id}/redeliver`, { method: 'POST' }))
        .status,
    ).toBe(202);
    await until(
      'redelivered',
      () => callAs(account.key, `/v1/webhooks/${broken.id}/deliveries/${deadLetter.id}`),
      (response) => response.body.status === 'succeeded',
    );
    expect(watcher.id).toMatch(/^whk_/);
  }, 60_000);
});
