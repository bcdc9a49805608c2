import { sharedStack } from '../support/test-stack';
import { runWebhookScenario, WEBHOOK_SCENARIOS } from './webhook-scenarios';

const scenario = (name: string) => WEBHOOK_SCENARIOS.find((candidate) => candidate.name === name)!;

/**
 * A webhook endpoint's workflow against the embedded Temporal dev server, its activities stubbed: deliveries
 * in order, side by side up to the endpoint's concurrency, retried after their backoff on durable timers, the
 * dead-letter queue, and what deliveries cost the server (every step a local activity).
 */
describe('the webhook endpoint workflow', () => {
  const address = () => sharedStack().temporalAddress;

  it('when six deliveries are due and the endpoint answers, then they go oldest first, four at a time, with no activity task and no timer', async () => {
    const run = await runWebhookScenario(address(), scenario('delivered-in-order'));
    expect(run.result).toBe('gone');
    const attempted = (ids: string[]) => ids.map((id) => `attemptWebhookDelivery ${id} #1`);
    // Side by side within a round, so in any order there; the rounds in order.
    expect(run.calls.slice(0, 4).sort()).toEqual(attempted(['whd_1', 'whd_2', 'whd_3', 'whd_4']));
    expect(run.calls.slice(4).sort()).toEqual(attempted(['whd_5', 'whd_6']));
    expect(Object.values(run.statuses)).toEqual(Array(6).fill('succeeded'));
    expect(
      run.eventTypes.filter(
        (type) => type.startsWith('EVENT_TYPE_ACTIVITY_TASK') || type.startsWith('EVENT_TYPE_TIMER'),
      ),
    ).toEqual([]);
  });

  it('when attempts fail for a while, then each wait for the next is a durable timer and the delivery succeeds', async () => {
    const run = await runWebhookScenario(address(), scenario('retried-then-succeeded'));
    expect(run.statuses).toEqual({ whd_1: 'succeeded' });
    expect(run.calls).toHaveLength(3);
    // 100 ms, then 200 ms of backoff, each a timer in the history rather than a sleep in the worker.
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_TIMER_FIRED')).toHaveLength(2);
  });

  it('when every attempt fails, then there are five and the delivery goes to the dead-letter queue', async () => {
    const run = await runWebhookScenario(address(), scenario('dead-lettered'));
    expect(run.calls).toEqual([1, 2, 3, 4, 5].map((n) => `attemptWebhookDelivery whd_1 #${n}`));
    expect(run.statuses).toEqual({ whd_1: 'failed' });
  });
});
