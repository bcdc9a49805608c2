import { retryDelayMs } from '../../domain/webhook-breaker';
import { WEBHOOK_MAX_ATTEMPTS } from '../../workflows/shared';

/**
 * A webhook endpoint and its deliveries in memory, behind the activities of the endpoint workflow
 * (workflows/webhook-endpoint.ts), as services/webhooks/ keeps them in the database: each delivery due at a time,
 * attempted in order, due again after the backoff of WEBHOOK_RETRY_INITIAL_INTERVAL when it fails, failed after its
 * fifth attempt. The webhook counts as deleted once every delivery settled (the workflow then ends), unless
 * `keep` says it stays. `now` is the clock: the dev server's is the machine's, the time-skipping server's its own.
 */
export interface FakeEndpointScript {
  deliveries: string[];
  /** What the endpoint answers to attempt `n` (1-based) of a delivery. */
  answer: (deliveryId: string, n: number) => 'succeed' | 'fail';
  retryInitialMs: number;
  now: () => Promise<number>;
}

interface FakeDelivery {
  status: 'pending' | 'succeeded' | 'failed';
  dueAt: number;
  attempts: number;
}

export function fakeEndpoint(script: FakeEndpointScript) {
  const calls: string[] = [];
  const attemptTimes: number[] = [];
  const deliveries = new Map<string, FakeDelivery>(
    script.deliveries.map((id) => [id, { status: 'pending', dueAt: 0, attempts: 0 }]),
  );
  let disabled: { failingSince: number; at: number } | null = null;
  const pending = () => [...deliveries.entries()].filter(([, delivery]) => delivery.status === 'pending');
  const activities = {
    async takeDueWebhookDeliveries(_webhookId: string, limit: number) {
      const now = await script.now();
      if (disabled) return { endpoint: 'disabled', due: [], nextDueAt: null };
      if (pending().length === 0) return { endpoint: 'gone', due: [], nextDueAt: null };
      const due = pending()
        .filter(([, delivery]) => delivery.dueAt <= now)
        .map(([id]) => id)
        .sort()
        .slice(0, limit);
      const later = pending().filter(([, delivery]) => delivery.dueAt > now);
      return {
        endpoint: 'active',
        due,
        nextDueAt: later.length === 0 ? null : Math.min(...later.map(([, delivery]) => delivery.dueAt)),
      };
    },
    async attemptWebhookDelivery(deliveryId: string) {
      const now = await script.now();
      const delivery = deliveries.get(deliveryId)!;
      if (delivery.status !== 'pending') return 'settled';
      delivery.attempts += 1;
      attemptTimes.push(now);
      calls.push(`attemptWebhookDelivery ${deliveryId} #${delivery.attempts}`);
      if (script.answer(deliveryId, delivery.attempts) === 'succeed') {
        delivery.status = 'succeeded';
        return 'succeeded';
      }
      if (delivery.attempts >= WEBHOOK_MAX_ATTEMPTS) delivery.status = 'failed';
      else delivery.dueAt = now + retryDelayMs(script.retryInitialMs, delivery.attempts);
      return 'failed';
    },
    async disableFailingWebhook(webhookId: string, failingSince: number) {
      disabled = { failingSince, at: await script.now() };
      calls.push(`disableFailingWebhook ${webhookId}`);
      for (const [, delivery] of pending()) delivery.status = 'failed';
      return true;
    },
  };
  return { activities, calls, attemptTimes, deliveries, disabled: () => disabled };
}
