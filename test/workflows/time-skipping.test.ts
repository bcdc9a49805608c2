import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';

import { loadStackConfig } from '../../stack/config';
import { ensureTool, TEMPORAL_TEST_SERVER } from '../../stack/tools';
import { QueueWorkers } from '../../worker/task-queues';
import { addSearchAttributes } from '../../worker/temporal-setup';
import { cachedWorkflowBundle } from '../../worker/workflow-bundle';
import type { deliverWebhookWorkflow } from '../../workflows/deliver-webhook';
import type { sendDocumentWorkflow } from '../../workflows/send-document';
import { delayAfterAttempt, WEBHOOK_MAX_ATTEMPTS } from '../../workflows/shared';
import { loadConfig } from '../../platform/config';

/**
 * The workflows' real windows, as configured, on Temporal's time-skipping test server (stack/tools.ts builds it):
 * an hour of sandbox delivery attempts, three days of live ones and a webhook's five attempts over minutes, each run in seconds. The activities are
 * stubbed to fail for as long as the window lasts; each notes the server's clock when it runs. (The receive
 * workflow's day of filing is not here: its steps are local activities, whose in-worker retries the test server
 * cannot skip; it ran ten minutes of expired workflow tasks without ending.)
 */
describe('the workflows over their real windows (time skipped)', () => {
  let env: TestWorkflowEnvironment;
  let codePath: string;
  const defaults = loadConfig({});

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger('ERROR') });
    } catch {
      // Installed already in this process.
    }
    const server = await ensureTool(loadStackConfig().TOOLS_DIR, TEMPORAL_TEST_SERVER, () => undefined);
    env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: server } } });
    // The send workflow writes the document's status to its search attribute, which the server must know.
    await addSearchAttributes(env.connection, 'default');
    codePath = await cachedWorkflowBundle();
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
  });

  /** Runs one workflow to its end on a worker of its own queue with the stubbed activities. */
  async function run<T>(taskQueue: string, activities: object, execute: (taskQueue: string) => Promise<T>): Promise<T> {
    const workers = await QueueWorkers.create({ connection: env.nativeConnection, baseQueue: taskQueue, codePath, activities });
    return workers.runUntil(() => execute(taskQueue));
  }

  it.each([
    { environment: 'sandbox', channel: 'email', activity: 'deliverByEmail', windowSeconds: defaults.DELIVERY_WINDOW_SECONDS, attempts: 20 },
    { environment: 'live', channel: 'peppol', activity: 'deliverOnPeppol', windowSeconds: defaults.LIVE_DELIVERY_WINDOW_SECONDS, attempts: 872 },
  ])(
    'when every $environment delivery attempt fails, then the attempts follow the backoff for the configured window ($windowSeconds s) and the document fails, saying so',
    async ({ channel, activity, windowSeconds, attempts: expectedAttempts }) => {
      const attempts: number[] = [];
      let failedWith = '';
      const result = await run(
        `send-window-${channel}`,
        {
          validateForSending: () => Promise.resolve({ ruleSet: 'eu.peppol.bis3:test', refusal: null, readablePdf: 'rendered' }),
          markSending: () => Promise.resolve({ channel }),
          [activity]: async () => {
            attempts.push(await env.currentTimeMs());
            throw new Error('connection refused');
          },
          markFailed: (_documentId: string, reason: string) => {
            failedWith = reason;
            return Promise.resolve();
          },
        },
        (taskQueue) =>
          env.client.workflow.execute<typeof sendDocumentWorkflow>('sendDocumentWorkflow', { taskQueue, workflowId: `send-window-${channel}`, args: [{ documentId: 'doc_window', deliveryWindowSeconds: windowSeconds }] }),
      );
      expect(result).toBe('failed');
      expect(failedWith).toBe(`Delivery did not succeed within ${windowSeconds} s; last error: connection refused.`);
      // Each wait is the retry policy's (1 s doubling to 5 minutes), to the second; the last attempt is the last that
      // the window leaves room for.
      const gaps = attempts.slice(1).map((at, index) => Math.round((at - attempts[index]!) / 1000));
      expect(gaps).toEqual(gaps.map((_, index) => delayAfterAttempt(index + 1) / 1000));
      const last = (attempts.at(-1)! - attempts[0]!) / 1000;
      expect(last).toBeLessThanOrEqual(windowSeconds);
      expect(last + delayAfterAttempt(attempts.length) / 1000).toBeGreaterThan(windowSeconds - 1);
      expect(attempts.length).toBe(expectedAttempts);
    },
    180_000,
  );

  it('when a webhook endpoint fails every attempt, then the five attempts follow the configured schedule (30 s doubling) and the delivery is dead-lettered', async () => {
    const retryInitialMs = defaults.WEBHOOK_RETRY_INITIAL_INTERVAL;
    const attempts: number[] = [];
    let deadLettered = false;
    const result = await run(
      'webhook-window',
      {
        attemptWebhookDelivery: async () => {
          attempts.push(await env.currentTimeMs());
          throw new Error('the endpoint answered 503');
        },
        markWebhookDeliveryFailed: () => {
          deadLettered = true;
          return Promise.resolve(true);
        },
      },
      (taskQueue) => env.client.workflow.execute<typeof deliverWebhookWorkflow>('deliverWebhookWorkflow', { taskQueue, workflowId: 'webhook-window', args: [{ deliveryId: 'whd_window', retryInitialMs }] }),
    );
    expect(result).toBe('failed');
    expect(deadLettered).toBe(true);
    expect(attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const gaps = attempts.slice(1).map((at, index) => Math.round((at - attempts[index]!) / 1000));
    expect(gaps).toEqual([30, 60, 120, 240].map((seconds) => (seconds * retryInitialMs) / 30_000));
  });
});
