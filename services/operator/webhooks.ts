import { WorkflowNotFoundError, type Client } from '@temporalio/client';

import type { Store } from '../../store';
import type { WebhookRow } from '../../store/webhooks';
import { webhookEndpointWorkflowId, WEBHOOK_BREAKER_QUERY, type WebhookEndpointState } from '../../workflows/shared';
import { OperatorError } from './workspaces';
import { withAttempts, type DeliveryWithAttempts } from '../webhooks/deliveries';

/** What an operator reads of one webhook delivery (`ops webhook delivery <whd_…>`). */
export interface DeliveryInspection {
  delivery: DeliveryWithAttempts;
  /** Its webhook, deleted ones too. */
  webhook: WebhookRow | null;
  workflowId: string;
  /** Its endpoint workflow's breaker; null when no run is open (ended with its webhook, or never woken). */
  endpoint: WebhookEndpointState | null;
}

export async function inspectDelivery(store: Store, temporal: Client, deliveryId: string): Promise<DeliveryInspection> {
  const delivery = await store.deliveries.findById(deliveryId).lean();
  if (!delivery) throw new OperatorError(`no webhook delivery ${deliveryId}`);
  const [withTheirAttempts] = await withAttempts(store, [delivery]);
  const webhook = await store.webhooks.findById(delivery.webhook_id).lean();
  const workflowId = webhookEndpointWorkflowId(delivery.webhook_id);
  let endpoint: WebhookEndpointState | null = null;
  try {
    const handle = temporal.workflow.getHandle(workflowId);
    if ((await handle.describe()).status.name === 'RUNNING')
      endpoint = await handle.query<WebhookEndpointState>(WEBHOOK_BREAKER_QUERY);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return { delivery: withTheirAttempts!, webhook, workflowId, endpoint };
}
