import { ApplicationFailure } from '@temporalio/activity';

import { attemptDelivery, markDeliveryFailed } from '../services/webhooks/attempt';
import { reconcileFanOut } from '../services/webhooks/deliveries';
import { DELIVERY_SETTLED } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';

export function webhookActivities(deps: Pick<ActivityDependencies, 'store' | 'secretBox' | 'allowPrivateTargets' | 'fanOut' | 'logger'>) {
  const { store, secretBox, allowPrivateTargets, fanOut, logger } = deps;
  return {
    /** One attempt; a failure is thrown for the retry policy, with what went wrong. */
    async attemptWebhookDelivery(deliveryId: string): Promise<void> {
      const outcome = await attemptDelivery(store, secretBox, { allowPrivate: allowPrivateTargets }, deliveryId);
      if (outcome.kind === 'settled') throw ApplicationFailure.nonRetryable(outcome.reason, DELIVERY_SETTLED);
      if (outcome.kind === 'failed') throw ApplicationFailure.retryable(outcome.error, 'WebhookAttemptFailed');
    },

    /** True when the delivery was still pending (so it is failed now), false when it had settled. */
    async markWebhookDeliveryFailed(deliveryId: string): Promise<boolean> {
      const before = await store.deliveries.findById(deliveryId, { status: 1 }).lean();
      await markDeliveryFailed(store, deliveryId);
      return before?.status === 'pending';
    },

    async reconcileEventFanOut(): Promise<{ events: number; started: number }> {
      const result = await reconcileFanOut(fanOut);
      if (result.started > 0) logger.warn(result, 'started webhook deliveries the fan-out could not');
      return result;
    },
  };
}
