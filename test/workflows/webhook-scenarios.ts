import type { webhookEndpointWorkflow } from '../../workflows/webhook-endpoint';
import { WEBHOOK_WAKE_SIGNAL, type WebhookWake } from '../../workflows/shared';
import { fakeEndpoint } from './fake-endpoint';
import { runOnOwnWorker } from './own-worker';
import { eventTypesOf } from './scenarios';

/**
 * A webhook endpoint's workflow with its activities stubbed (test/workflows/fake-endpoint.ts), on a real
 * Temporal server: each scenario scripts what the endpoint answers; the run records the calls and the history's
 * event types (the recorder keeps the history for the replay tests). Backoff starts at 100 ms here; the real
 * schedule, the breaker's pauses and the disable period run on the time-skipping server (time-skipping.test.ts).
 */

export interface WebhookScenario {
  name: string;
  deliveries: string[];
  answer: (deliveryId: string, n: number) => 'succeed' | 'fail';
}

export const WEBHOOK_SCENARIOS: WebhookScenario[] = [
  {
    name: 'delivered-in-order',
    deliveries: ['whd_1', 'whd_2', 'whd_3', 'whd_4', 'whd_5', 'whd_6'],
    answer: () => 'succeed',
  },
  { name: 'retried-then-succeeded', deliveries: ['whd_1'], answer: (_id, n) => (n <= 2 ? 'fail' : 'succeed') },
  { name: 'dead-lettered', deliveries: ['whd_1'], answer: () => 'fail' },
];

export interface WebhookScenarioRun {
  result: string;
  calls: string[];
  statuses: Record<string, string>;
  /** The history's event types, e.g. EVENT_TYPE_MARKER_RECORDED. */
  eventTypes: string[];
  workflowId: string;
}

export async function runWebhookScenario(
  temporalAddress: string,
  scenario: WebhookScenario,
): Promise<WebhookScenarioRun> {
  const endpoint = fakeEndpoint({
    deliveries: scenario.deliveries,
    answer: scenario.answer,
    retryInitialMs: 100,
    now: () => Promise.resolve(Date.now()),
  });
  return runOnOwnWorker(
    temporalAddress,
    `webhook-test-${scenario.name}`,
    endpoint.activities,
    (client, run) =>
      client.workflow.signalWithStart<typeof webhookEndpointWorkflow, [WebhookWake]>('webhookEndpointWorkflow', {
        ...run,
        args: [{ webhookId: 'whk_test', disableAfterMs: 5 * 86_400_000 }],
        signal: WEBHOOK_WAKE_SIGNAL,
        signalArgs: [{ probe: false }],
      }),
    async (handle, result) => ({
      result,
      calls: endpoint.calls,
      statuses: Object.fromEntries([...endpoint.deliveries].map(([id, delivery]) => [id, delivery.status])),
      eventTypes: await eventTypesOf(handle),
      workflowId: handle.workflowId,
    }),
  );
}
