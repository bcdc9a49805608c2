import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';

import type { Activities } from '../activities';
import {
  afterAttempts,
  breakerStep,
  CLOSED,
  failingTooLong,
  probeNow,
  type BreakerState,
} from '../domain/webhook-breaker';
import {
  WEBHOOK_BREAKER_QUERY,
  WEBHOOK_ENDPOINT_CONCURRENCY,
  WEBHOOK_WAKE_SIGNAL,
  type WebhookEndpointInput,
  type WebhookEndpointState,
  type WebhookWake,
} from './shared';
import { movesToNewBuilds } from './versioning';

const wakeSignal = defineSignal<[WebhookWake]>(WEBHOOK_WAKE_SIGNAL);
const breakerQuery = defineQuery<WebhookEndpointState>(WEBHOOK_BREAKER_QUERY);

/**
 * The steps are local activities (a few database reads and writes, one HTTP request of at most 10 s): a round of
 * attempts costs the server no activity task, and the rounds that follow one another need no round trip until the
 * workflow waits. Each step is retried briefly (the database away); an attempt records its own failure and
 * never throws for it.
 */
const { takeDueWebhookDeliveries, attemptWebhookDelivery, disableFailingWebhook } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Rounds in one run before it continues as new (sooner when Temporal suggests it): the history stays small. */
const ROUNDS_PER_RUN = 500;

/**
 * One webhook endpoint, one long-lived workflow (id `webhook-endpoint-<webhook id>`), started or woken by the
 * `wake` signal whenever it has work. Its deliveries are rows (services/webhooks/deliveries.ts); each round:
 *
 *   take the due deliveries, oldest first, at most WEBHOOK_ENDPOINT_CONCURRENCY (one while the breaker is half-open)
 *     none due ──▶ wait for a wake, or until the next is due
 *     breaker paused ──▶ wait until the pause ends (a wake with `probe` ends it now)
 *     otherwise ──▶ attempt them side by side; each attempt records itself and moves its delivery
 *                   (succeeded; due again after the backoff; failed after its fifth)
 *   the round's outcomes move the breaker (domain/webhook-breaker.ts); failing without one success for
 *   WEBHOOK_DISABLE_AFTER ──▶ the webhook is disabled (dead letters, event, email) and the workflow ends
 *   the webhook deleted or disabled by its owner ──▶ the workflow ends (enabling it again wakes a new run)
 *
 * A round ends when its slowest attempt does (10 s at most): what the workflow decides next depends only on whole
 * rounds, never on which attempt of a round ended first, so a replay of its history (local activities resolve
 * from their markers, several at once) takes the same steps. One endpoint that fails or hangs holds only its own
 * workflow: every other endpoint's deliveries go on.
 */
export async function webhookEndpointWorkflow(input: WebhookEndpointInput): Promise<'disabled' | 'gone'> {
  const { webhookId, disableAfterMs } = input;
  let breaker: BreakerState = input.breaker ?? CLOSED;
  let woken = false;
  setHandler(wakeSignal, ({ probe }) => {
    woken = true;
    if (probe) breaker = probeNow(breaker);
  });
  setHandler(breakerQuery, () => ({ breaker }));

  for (let round = 0; round < ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested; round += 1) {
    woken = false;
    const step = breakerStep(breaker, Date.now());
    if (step === 'paused') {
      setCurrentDetails(
        `Paused after ${breaker.failures} failed attempts in a row, until ${new Date(breaker.pausedUntil!).toISOString()}`,
      );
      const pausedUntil = breaker.pausedUntil!;
      await condition(() => breaker.pausedUntil !== pausedUntil, Math.max(1, pausedUntil - Date.now()));
      continue;
    }
    const taken = await takeDueWebhookDeliveries(webhookId, step === 'half-open' ? 1 : WEBHOOK_ENDPOINT_CONCURRENCY);
    if (taken.endpoint !== 'active') return taken.endpoint;
    if (taken.due.length === 0) {
      setCurrentDetails(
        taken.nextDueAt === null
          ? 'Nothing to deliver; waiting for the next event'
          : `Next delivery due at ${new Date(taken.nextDueAt).toISOString()}`,
      );
      if (taken.nextDueAt === null) await condition(() => woken);
      else await condition(() => woken, Math.max(1, taken.nextDueAt - Date.now()));
      continue;
    }
    setCurrentDetails(
      step === 'half-open' ? `Probing with ${taken.due[0]} after a pause` : `Delivering ${taken.due.join(', ')}`,
    );
    const outcomes = await Promise.all(taken.due.map((deliveryId) => attemptWebhookDelivery(deliveryId)));
    breaker = afterAttempts(
      breaker,
      outcomes.filter((outcome): outcome is 'succeeded' | 'failed' => outcome !== 'settled'),
      Date.now(),
    );
    if (failingTooLong(breaker, Date.now(), disableAfterMs)) {
      setCurrentDetails(`Failing since ${new Date(breaker.failingSince!).toISOString()}: disabling the webhook`);
      await disableFailingWebhook(webhookId, breaker.failingSince!, disableAfterMs);
      return 'disabled';
    }
  }
  await condition(allHandlersFinished);
  return continueAsNew<typeof webhookEndpointWorkflow>({ ...input, breaker });
}

// Long-lived (it continues as new for as long as its webhook exists): it moves to each new build at its next task.
movesToNewBuilds(webhookEndpointWorkflow);
