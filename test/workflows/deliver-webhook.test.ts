import { sharedStack } from '../support/test-stack';
import { runWebhookScenario, WEBHOOK_SCENARIOS } from './webhook-scenarios';

const scenario = (name: string) => WEBHOOK_SCENARIOS.find((candidate) => candidate.name === name)!;

/**
 * The webhook delivery workflow against the embedded Temporal dev server, its
 * activities stubbed: attempts by the retry policy, the dead-letter queue,
 * and what a delivery costs the server (its attempt is a local activity).
 */
describe('the webhook delivery workflow', () => {
  const address = () => sharedStack().temporalAddress;

  it('when the first attempt succeeds, then the server ran one workflow task and no activity task', async () => {
    const run = await runWebhookScenario(address(), scenario('succeeded'));
    expect(run.result).toBe('succeeded');
    expect(run.calls).toEqual(['attemptWebhookDelivery whd_test #1']);
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED')).toHaveLength(1);
    expect(run.eventTypes.filter((type) => type.startsWith('EVENT_TYPE_ACTIVITY_TASK'))).toEqual([]);
  });

  it('when attempts fail for a while, then each wait is a durable timer and the delivery succeeds', async () => {
    const run = await runWebhookScenario(address(), scenario('retried-then-succeeded'));
    expect(run.result).toBe('succeeded');
    expect(run.calls).toHaveLength(3);
    // 100 ms, then 200 ms of backoff, each a timer in the history rather than a sleep in the worker.
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_TIMER_FIRED')).toHaveLength(2);
  });

  it('when every attempt fails, then there are five and the delivery goes to the dead-letter queue', async () => {
    const run = await runWebhookScenario(address(), scenario('dead-lettered'));
    expect(run.result).toBe('failed');
    expect(run.calls).toEqual([...[1, 2, 3, 4, 5].map((n) => `attemptWebhookDelivery whd_test #${n}`), 'markWebhookDeliveryFailed whd_test']);
  });

  it('when the delivery had settled already (a redelivery raced it), then there is no second attempt', async () => {
    const run = await runWebhookScenario(address(), scenario('settled-elsewhere'));
    expect(run.result).toBe('settled');
    expect(run.calls).toEqual(['attemptWebhookDelivery whd_test #1', 'markWebhookDeliveryFailed whd_test']);
  });
});
