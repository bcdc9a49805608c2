import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';

import { loadStackConfig } from '../../stack/config';
import { ensureTool, TEMPORAL_TEST_SERVER } from '../../stack/tools';
import { QueueWorkers } from '../../worker/task-queues';
import { addSearchAttributes } from '../../worker/temporal-setup';
import { cachedWorkflowBundle } from '../../worker/workflow-bundle';
import type { sendDocumentWorkflow } from '../../workflows/send-document';
import {
  delayAfterAttempt,
  KYC_REVIEW_REMINDER_EVERY,
  KYC_REVIEW_SIGNAL,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_WAKE_SIGNAL,
  type WebhookWake,
} from '../../workflows/shared';
import type { kycReviewWorkflow } from '../../workflows/kyc-review';
import type { webhookEndpointWorkflow } from '../../workflows/webhook-endpoint';
import { loadConfig } from '../../platform/config';
import { fakeEndpoint } from './fake-endpoint';
import { recordedAsAccepted, stubAcceptance } from '../support/stub-acceptance';

/**
 * The workflows' real windows, as configured, on Temporal's time-skipping test server (stack/tools.ts builds it):
 * an hour of sandbox delivery attempts, three days of live ones, a webhook's five attempts over minutes, an endpoint failing for days until it is disabled and a KYC review's daily reminders, each run in seconds. The activities are
 * stubbed to fail for as long as the window lasts; each notes the server's clock when it runs. (The receive
 * workflow's day of filing is not here: its filing is a local activity, whose schedule-to-close the worker measures
 * on its own clock, not the server's; with its retries' waits made timers the server skipped twenty days and 5,654
 * attempts without the window closing.)
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
    env = await TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: server } },
    });
    // The send workflow writes the document's status to its search attribute, which the server must know.
    await addSearchAttributes(env.connection, 'default');
    codePath = await cachedWorkflowBundle();
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
  });

  /** Runs one workflow to its end on a worker of its own queue with the stubbed activities. */
  async function run<T>(taskQueue: string, activities: object, execute: (taskQueue: string) => Promise<T>): Promise<T> {
    const workers = await QueueWorkers.create({
      connection: env.nativeConnection,
      baseQueue: taskQueue,
      codePath,
      activities,
    });
    return workers.runUntil(() => execute(taskQueue));
  }

  it.each([
    {
      environment: 'sandbox',
      channel: 'email',
      activity: 'deliverByEmail',
      windowSeconds: defaults.DELIVERY_WINDOW_SECONDS,
      attempts: 20,
    },
    {
      environment: 'live',
      channel: 'peppol',
      activity: 'deliverOnPeppol',
      windowSeconds: defaults.LIVE_DELIVERY_WINDOW_SECONDS,
      attempts: 872,
    },
  ])(
    'when every $environment delivery attempt fails, then the attempts follow the backoff for the configured window ($windowSeconds s) and the document fails, saying so',
    async ({ channel, activity, windowSeconds, attempts: expectedAttempts }) => {
      const attempts: number[] = [];
      let failedWith = '';
      const result = await run(
        `send-window-${channel}`,
        {
          recordAcceptance: recordedAsAccepted,
          validateForSending: () =>
            Promise.resolve({ ruleSet: 'eu.peppol.bis3:test', refusal: null, readablePdf: 'rendered' }),
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
          env.client.workflow.execute<typeof sendDocumentWorkflow>('sendDocumentWorkflow', {
            taskQueue,
            workflowId: `send-window-${channel}`,
            args: [
              {
                documentId: 'doc_window',
                acceptance: stubAcceptance('doc_window'),
                deliveryWindowSeconds: windowSeconds,
              },
            ],
          }),
      );
      expect(result).toBe('failed');
      expect(failedWith).toBe(`Delivery did not succeed within ${windowSeconds} s; last error: connection refused.`);
      // Each wait is the retry policy's (1 s doubling to 5 minutes), to the second; the last attempt is the last that
      // the window leaves room for.
      expectBackoff(attempts, (index) => delayAfterAttempt(index + 1));
      const last = (attempts.at(-1)! - attempts[0]!) / 1000;
      expect(last).toBeLessThanOrEqual(windowSeconds);
      expect(last + delayAfterAttempt(attempts.length) / 1000).toBeGreaterThan(windowSeconds - 1);
      expect(attempts.length).toBe(expectedAttempts);
    },
    180_000,
  );

  /**
   * Each wait between attempts is the backoff (`delayMs(index)` after attempt `index + 1`), to the second. The test
   * server's clock runs in real time while a task waits for a worker, so on a loaded machine a wait reads up to a
   * second longer, never shorter.
   */
  function expectBackoff(attemptTimes: number[], delayMs: (index: number) => number) {
    const gaps = attemptTimes.slice(1).map((at, index) => at - attemptTimes[index]!);
    gaps.forEach((gap, index) => {
      expect(gap).toBeGreaterThanOrEqual(delayMs(index) - 500);
      expect(gap).toBeLessThan(delayMs(index) + 1_500);
    });
  }

  /** A webhook endpoint's workflow run to its end over the fake endpoint, on the time-skipping server's clock. */
  function runEndpoint(name: string, endpoint: ReturnType<typeof fakeEndpoint>) {
    return run(name, endpoint.activities, (taskQueue) =>
      env.client.workflow
        .signalWithStart<typeof webhookEndpointWorkflow, [WebhookWake]>('webhookEndpointWorkflow', {
          taskQueue,
          workflowId: name,
          args: [{ webhookId: 'whk_window', disableAfterMs: defaults.WEBHOOK_DISABLE_AFTER }],
          signal: WEBHOOK_WAKE_SIGNAL,
          signalArgs: [{ probe: false }],
        })
        .then((handle) => handle.result()),
    );
  }

  it('when a webhook endpoint fails every attempt of a delivery, then the five attempts follow the configured schedule (30 s doubling) and the delivery is dead-lettered', async () => {
    const retryInitialMs = defaults.WEBHOOK_RETRY_INITIAL_INTERVAL;
    const endpoint = fakeEndpoint({
      deliveries: ['whd_window'],
      answer: () => 'fail',
      retryInitialMs,
      now: () => env.currentTimeMs(),
    });
    expect(await runEndpoint('webhook-window', endpoint)).toBe('gone');
    expect(endpoint.deliveries.get('whd_window')!.status).toBe('failed');
    expect(endpoint.attemptTimes).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expectBackoff(endpoint.attemptTimes, (index) => [30, 60, 120, 240][index]! * (retryInitialMs / 30));
  });

  it('when an endpoint fails everything for days, then its breaker pauses it after ten failures in a row (1 minute, doubling to an hour, one probe each) and it is disabled once it has failed for the configured period', async () => {
    const deliveries = Array.from({ length: 40 }, (_, i) => `whd_${String(i).padStart(2, '0')}`);
    const endpoint = fakeEndpoint({
      deliveries,
      answer: () => 'fail',
      retryInitialMs: defaults.WEBHOOK_RETRY_INITIAL_INTERVAL,
      now: () => env.currentTimeMs(),
    });
    expect(await runEndpoint('webhook-breaker', endpoint)).toBe('disabled');
    const times = endpoint.attemptTimes;
    const disabled = endpoint.disabled()!;
    // Its clock is the workflow's, at the task that ran the first attempt: a moment before the attempt's.
    expect(times[0]! - disabled.failingSince).toBeGreaterThanOrEqual(0);
    expect(times[0]! - disabled.failingSince).toBeLessThan(1_000);
    // Disabled at the first failure past the period: at most one pause (an hour) after it.
    expect(disabled.at - times[0]!).toBeGreaterThanOrEqual(defaults.WEBHOOK_DISABLE_AFTER);
    expect(disabled.at - times[0]!).toBeLessThanOrEqual(defaults.WEBHOOK_DISABLE_AFTER + 3_600_000);
    // Ten failures (and the attempts already in flight) while closed, then one probe per pause: the pauses double
    // from a minute and stay at an hour.
    const gaps = times.slice(1).map((at, index) => at - times[index]!);
    const closed = gaps.findIndex((gap) => gap >= 50_000) + 1;
    expect(closed).toBeGreaterThanOrEqual(10);
    expect(closed).toBeLessThanOrEqual(10 + 3);
    const pauses = gaps.slice(closed - 1).map((gap) => Math.round(gap / 60_000));
    expect(pauses.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(Math.max(...pauses)).toBe(60);
    // Every delivery still pending then is in the dead-letter queue; none was attempted more than five times.
    expect(
      [...endpoint.deliveries.values()].every(
        (delivery) => delivery.status === 'failed' && delivery.attempts <= WEBHOOK_MAX_ATTEMPTS,
      ),
    ).toBe(true);
  }, 120_000);

  it('when a KYC review waits for its decision, then the operators are reminded once a day, as configured, until it comes, and the review goes on with the decision', async () => {
    const reminders: { at: number; days: number }[] = [];
    let started = 0;
    const state = await run(
      'kyc-reminders',
      {
        remindKycReviewers: async (_workspaceId: string, _submission: number, days: number) =>
          void reminders.push({ at: await env.currentTimeMs(), days }),
        recordKycReview: () =>
          Promise.resolve({ status: 'rejected', rejectReason: 'The scan of the registration extract is unreadable.' }),
      },
      async (taskQueue) => {
        const handle = await env.client.workflow.start<typeof kycReviewWorkflow>('kycReviewWorkflow', {
          taskQueue,
          workflowId: 'kyc-reminders',
          args: [{ workspaceId: 'wsp_test', submission: 1 }],
        });
        started = await env.currentTimeMs();
        await env.sleep('84 hours');
        await handle.signal(KYC_REVIEW_SIGNAL, {
          decision: 'reject',
          reason: 'The scan of the registration extract is unreadable.',
        });
        return handle.result();
      },
    );
    expect(state).toMatchObject({
      status: 'rejected',
      rejectReason: 'The scan of the registration extract is unreadable.',
    });
    expect(reminders.map(({ days }) => days)).toEqual([1, 2, 3]);
    const dayMs = 24 * 3600_000;
    expect(reminders.map(({ at }) => Math.round((at - started) / 60_000))).toEqual(
      [1, 2, 3].map((days) => (days * dayMs) / 60_000),
    );
    expect(KYC_REVIEW_REMINDER_EVERY).toBe('1 day');
  });
});
