import { attemptDelivery } from '../services/webhooks/attempt';
import { reconcileFanOut } from '../services/webhooks/deliveries';
import { disableFailingWebhook } from '../services/webhooks/disabling';
import { dueDeliveries, type DueDeliveries } from '../services/webhooks/endpoint';
import type { ActivityDependencies } from './dependencies';

/** What an endpoint's workflow (workflows/webhook-endpoint.ts) does through activities, and the fan-out reconciler. */
export function webhookActivities(
  deps: Pick<
    ActivityDependencies,
    'store' | 'secretBox' | 'allowPrivateTargets' | 'fanOut' | 'logger' | 'smtpUrl' | 'mailFrom'
  >,
) {
  const { store, secretBox, allowPrivateTargets, fanOut, logger } = deps;
  return {
    /** The endpoint's deliveries due now (at most `limit`), when the next is due, and whether the webhook is still there and enabled. */
    takeDueWebhookDeliveries(webhookId: string, limit: number): Promise<DueDeliveries> {
      return dueDeliveries(store, webhookId, limit);
    },

    /** One attempt, recorded with its outcome; never thrown: the endpoint's workflow decides what follows. */
    async attemptWebhookDelivery(deliveryId: string): Promise<'succeeded' | 'failed' | 'settled'> {
      return (
        await attemptDelivery(
          store,
          secretBox,
          { allowPrivate: allowPrivateTargets },
          fanOut.retryInitialMs,
          deliveryId,
        )
      ).kind;
    },

    /** True when the webhook is disabled now by this; false when its owner disabled or deleted it first. */
    disableFailingWebhook(webhookId: string, failingSinceMs: number, disableAfterMs: number): Promise<boolean> {
      return disableFailingWebhook(
        { store, logger, fanOut, smtpUrl: deps.smtpUrl, mailFrom: deps.mailFrom },
        webhookId,
        new Date(failingSinceMs),
        disableAfterMs,
      );
    },

    async reconcileEventFanOut(): Promise<{ events: number; woken: number }> {
      const result = await reconcileFanOut(fanOut);
      if (result.woken > 0) logger.info(result, 'woke webhook endpoints with deliveries overdue');
      return result;
    },
  };
}
