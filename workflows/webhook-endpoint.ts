import { allHandlersFinished, condition, continueAsNew, defineSignal, proxyLocalActivities, setCurrentDetails, setHandler, workflowInfo } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { afterAttempts, breakerStep, CLOSED, failingTooLong, probeNow, type BreakerState } from '../domain/webhook-breaker';
import { WEBHOOK_ENDPOINT_CONCURRENCY, WEBHOOK_WAKE_SIGNAL, type WebhookEndpointInput, type WebhookWake } from './shared';
import { movesToNewBuilds } from './versioning';

export const wakeSignal = defineSignal<[WebhookWake]>(WEBHOOK_WAKE_SIGNAL);

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
 * `wake` signal whenever it has work. Its deliveries are rows (services/webhooks/deliveries.ts); it keeps up to
 * WEBHOOK_ENDPOINT_CONCURRENCY attempts in flight, taking the oldest due deliveries as room frees:
 *
 *   breaker closed ──▶ take due deliveries for the free room; each attempt records itself and moves its
 *                      delivery (succeeded; due again after the backoff; failed after its fifth)
 *   breaker half-open ──▶ one attempt at a time (the probe)
 *   breaker paused ──▶ nothing new until the pause ends (a wake with `probe` ends it now)
 *   nothing due ──▶ wait for a wake, an attempt ending, or the next delivery's time
 *   each outcome moves the breaker (domain/webhook-breaker.ts); failing without one success for
 *   WEBHOOK_DISABLE_AFTER ──▶ the webhook is disabled (dead letters, event, email) and the workflow ends
 *   the webhook deleted or disabled by its owner ──▶ the workflow ends once its attempts in flight have
 *   (enabling it again wakes a new run)
 *
 * One endpoint that fails or hangs holds only its own workflow and its own room: every other endpoint's
 * deliveries go on.
 */
export async function webhookEndpointWorkflow(input: WebhookEndpointInput): Promise<'disabled' | 'gone'> {
  const { webhookId, disableAfterMs } = input;
  let breaker: BreakerState = input.breaker ?? CLOSED;
  let woken = false;
  let ended = 0;
  const inFlight = new Set<string>();
  setHandler(wakeSignal, ({ probe }) => {
    woken = true;
    if (probe) breaker = probeNow(breaker);
  });
  const attempt = (deliveryId: string) => {
    inFlight.add(deliveryId);
    void attemptWebhookDelivery(deliveryId).then((outcome) => {
      inFlight.delete(deliveryId);
      ended += 1;
      if (outcome !== 'settled') breaker = afterAttempts(breaker, [outcome], Date.now());
    });
  };
  const drained = async <T>(result: T): Promise<T> => {
    await condition(() => inFlight.size === 0);
    return result;
  };

  for (let round = 0; round < ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested; round += 1) {
    if (failingTooLong(breaker, Date.now(), disableAfterMs)) {
      setCurrentDetails(`Failing since ${new Date(breaker.failingSince!).toISOString()}: disabling the webhook`);
      await drained(undefined);
      await disableFailingWebhook(webhookId, breaker.failingSince!, disableAfterMs);
      return 'disabled';
    }
    woken = false;
    const seen = ended;
    const step = breakerStep(breaker, Date.now());
    if (step === 'paused') {
      setCurrentDetails(`Paused after ${breaker.failures} failed attempts in a row, until ${new Date(breaker.pausedUntil!).toISOString()}`);
      const pausedUntil = breaker.pausedUntil!;
      await condition(() => breaker.pausedUntil !== pausedUntil, Math.max(1, pausedUntil - Date.now()));
      continue;
    }
    const room = (step === 'half-open' ? 1 : WEBHOOK_ENDPOINT_CONCURRENCY) - inFlight.size;
    let nextDueAt: number | null = null;
    if (room > 0) {
      const taken = await takeDueWebhookDeliveries(webhookId, room, [...inFlight]);
      if (taken.endpoint !== 'active') return drained(taken.endpoint);
      for (const deliveryId of taken.due) attempt(deliveryId);
      nextDueAt = taken.due.length === room ? null : taken.nextDueAt;
    }
    setCurrentDetails(inFlight.size > 0 ? `Delivering ${[...inFlight].join(', ')}${step === 'half-open' ? ' (a probe after a pause)' : ''}` : nextDueAt === null ? 'Nothing to deliver; waiting for the next event' : `Next delivery due at ${new Date(nextDueAt).toISOString()}`);
    // No room left: wait for an attempt to end. Room left: also for a wake, or the next delivery's time.
    const full = inFlight.size >= (step === 'half-open' ? 1 : WEBHOOK_ENDPOINT_CONCURRENCY);
    const moved = () => ended !== seen || (!full && woken);
    if (full || nextDueAt === null) await condition(moved);
    else await condition(moved, Math.max(1, nextDueAt - Date.now()));
  }
  await drained(undefined);
  await condition(allHandlersFinished);
  return continueAsNew<typeof webhookEndpointWorkflow>({ ...input, breaker });
}

// Long-lived (it continues as new for as long as its webhook exists): it moves to each new build at its next task.
movesToNewBuilds(webhookEndpointWorkflow);
