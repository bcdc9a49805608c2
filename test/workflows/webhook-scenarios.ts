import { ApplicationFailure } from '@temporalio/common';

import type { deliverWebhookWorkflow } from '../../workflows/deliver-webhook';
import { DELIVERY_SETTLED } from '../../workflows/shared';
import { runOnOwnWorker } from './own-worker';
import { eventTypesOf } from './scenarios';

/**
 * The webhook delivery workflow with its activities stubbed, on a real
 * Temporal server: each scenario scripts what attempt n does; the run records
 * the calls and the history's event types (the recorder keeps the history
 * for the replay tests).
 */

export interface WebhookScenario {
  name: string;
  /** What attempt n (1-based) does: answered 2xx, failed (retried), or found the delivery settled already. */
  attempt: (n: number) => 'succeed' | 'fail' | 'settled';
}

export const WEBHOOK_SCENARIOS: WebhookScenario[] = [
  { name: 'succeeded', attempt: () => 'succeed' },
  { name: 'retried-then-succeeded', attempt: (n) => (n <= 2 ? 'fail' : 'succeed') },
  { name: 'dead-lettered', attempt: () => 'fail' },
  { name: 'settled-elsewhere', attempt: () => 'settled' },
];

export interface WebhookScenarioRun {
  result: string;
  calls: string[];
  /** The history's event types, e.g. EVENT_TYPE_MARKER_RECORDED. */
  eventTypes: string[];
  workflowId: string;
  seconds: number;
}

export async function runWebhookScenario(temporalAddress: string, scenario: WebhookScenario): Promise<WebhookScenarioRun> {
  const calls: string[] = [];
  let attempts = 0;
  const activities = {
    attemptWebhookDelivery: (deliveryId: string): Promise<void> => {
      attempts += 1;
      calls.push(`attemptWebhookDelivery ${deliveryId} #${attempts}`);
      const outcome = scenario.attempt(attempts);
      if (outcome === 'settled') return Promise.reject(ApplicationFailure.nonRetryable('the delivery succeeded before', DELIVERY_SETTLED));
      if (outcome === 'fail') return Promise.reject(ApplicationFailure.retryable(`answered 500 (attempt ${attempts})`, 'WebhookAttemptFailed'));
      return Promise.resolve();
    },
    markWebhookDeliveryFailed: (deliveryId: string): Promise<boolean> => {
      calls.push(`markWebhookDeliveryFailed ${deliveryId}`);
      return Promise.resolve(scenario.attempt(attempts) === 'fail');
    },
  };
  return runOnOwnWorker(
    temporalAddress,
    `webhook-test-${scenario.name}`,
    activities,
    (client, run) =>
      client.workflow.start<typeof deliverWebhookWorkflow>('deliverWebhookWorkflow', {
        ...run,
        args: [{ deliveryId: 'whd_test', retryInitialMs: 100 }],
      }),
    async (handle, result, seconds) => ({ result, calls, eventTypes: await eventTypesOf(handle), workflowId: handle.workflowId, seconds }),
  );
}
