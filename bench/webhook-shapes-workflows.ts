import { proxyLocalActivities } from '@temporalio/workflow';

/**
 * The two webhook delivery shapes `bench:webhooks` measures as floors, bundled for the benchmark's own worker
 * only: the service's (one long-lived workflow per endpoint, workflows/webhook-endpoint.ts, the real one) and the
 * one it replaced, one workflow per delivery, kept here as that design's reference. Both run their steps as local
 * activities that do nothing, so what each costs is the shape itself.
 */
export { webhookEndpointWorkflow } from '../workflows/webhook-endpoint';

const { attemptWebhookDelivery } = proxyLocalActivities<{
  attemptWebhookDelivery(deliveryId: string): Promise<string>;
}>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 5 },
  localRetryThreshold: 0,
});

/** The replaced design: a workflow per delivery (id `webhook-<delivery id>`), its attempts a local activity with the retry policy's backoff. */
export async function perDeliveryWorkflow(deliveryId: string): Promise<string> {
  return attemptWebhookDelivery(deliveryId);
}
