import { allHandlersFinished, condition, continueAsNew, defineSignal, proxyLocalActivities, setHandler } from '@temporalio/workflow';

/**
 * The two webhook delivery shapes `bench:webhooks` measures as floors, bundled for the benchmark's own
 * worker only: the service's (one workflow per delivery, workflows/deliver-webhook.ts) and the other one
 * issue 33 asks to compare, one long-lived workflow per endpoint carrying its deliveries. Both run the
 * attempt as a local activity that does nothing, so what each costs is the shape itself.
 */
export { deliverWebhookWorkflow } from '../workflows/deliver-webhook';

export const deliverySignal = defineSignal<[string]>('delivery');

const { attemptWebhookDelivery } = proxyLocalActivities<{ attemptWebhookDelivery(deliveryId: string): Promise<void> }>({
  startToCloseTimeout: '30 seconds',
});

/**
 * One endpoint's deliveries, each arriving as a signal (started by the first), attempted as they come, in
 * batches of whatever arrived during the last attempts; a fresh run (continue-as-new) every `perRun`, carrying
 * what is still waiting, so that the history stays bounded.
 */
export async function endpointDeliveriesWorkflow(perRun: number, carried: string[] = []): Promise<void> {
  const waiting = [...carried];
  setHandler(deliverySignal, (deliveryId) => void waiting.push(deliveryId));
  let handled = 0;
  while (handled < perRun) {
    await condition(() => waiting.length > 0);
    const batch = waiting.splice(0);
    await Promise.all(batch.map((deliveryId) => attemptWebhookDelivery(deliveryId)));
    handled += batch.length;
  }
  await condition(allHandlersFinished);
  await continueAsNew<typeof endpointDeliveriesWorkflow>(perRun, waiting);
}
