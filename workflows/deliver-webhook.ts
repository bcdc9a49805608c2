import { proxyLocalActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { DELIVERY_SETTLED, WEBHOOK_MAX_ATTEMPTS, type DeliverWebhookInput } from './shared';

/**
 * One webhook delivery, one workflow (id `webhook-<delivery id>`):
 *
 *   pending ──attempt──▶ succeeded
 *      │  ▲
 *      └──┘ a non-2xx answer, a network error or a timeout: the retry policy waits and tries again
 *      │
 *      └── the fifth attempt failed ──▶ failed (the dead-letter queue; a redelivery runs this again)
 *
 * The attempt is a local activity: a delivery that succeeds at once costs
 * the server one workflow task and no activity task (each attempt is
 * recorded on the delivery row, where the API lists it). Every wait between
 * attempts is a durable timer (localRetryThreshold 0), never a sleep in the
 * worker.
 */
export async function deliverWebhookWorkflow({ deliveryId, retryInitialMs }: DeliverWebhookInput): Promise<'succeeded' | 'failed' | 'settled'> {
  const { attemptWebhookDelivery } = proxyLocalActivities<Activities>({
    // The request's own limit is 10 s; the rest is reading the delivery and recording the attempt.
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: retryInitialMs, backoffCoefficient: 2, maximumAttempts: WEBHOOK_MAX_ATTEMPTS, nonRetryableErrorTypes: [DELIVERY_SETTLED] },
    localRetryThreshold: 0,
  });
  const { markWebhookDeliveryFailed } = proxyLocalActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  try {
    await attemptWebhookDelivery(deliveryId);
    return 'succeeded';
  } catch {
    return (await markWebhookDeliveryFailed(deliveryId)) ? 'failed' : 'settled';
  }
}
