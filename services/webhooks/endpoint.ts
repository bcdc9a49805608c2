import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { signalWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import { webhookEndpointWorkflowId, WEBHOOK_WAKE_SIGNAL, type WebhookWake } from '../../workflows/shared';
import { findWebhook } from './registry';

/**
 * What an endpoint's workflow (workflows/webhook-endpoint.ts) asks of the database, and how the rest of the
 * service tells it there is work: the deliveries are rows, the workflow reads which are due, so a wake that
 * is lost loses nothing (the reconciler wakes every endpoint with a delivery overdue).
 */

export interface WakeDependencies {
  temporal: Client;
  /** WEBHOOK_DISABLE_AFTER, which the workflow keeps. */
  disableAfterMs: number;
}

/** Starts the endpoint's workflow if none runs, and tells it to look again (`probe`: end a pause of its breaker). */
export async function wakeEndpoint(
  deps: WakeDependencies,
  webhookId: string,
  wake: WebhookWake = { probe: false },
): Promise<void> {
  await signalWorkflow(
    deps.temporal,
    'webhookEndpointWorkflow',
    WEBHOOK_WAKE_SIGNAL,
    {
      workflowId: webhookEndpointWorkflowId(webhookId),
      // A run that ended (its webhook disabled or deleted) is followed by a new one when there is work again.
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      input: { webhookId, disableAfterMs: deps.disableAfterMs },
      staticSummary: `Deliveries to webhook ${webhookId}`,
    },
    [wake],
  );
}

type EndpointState = 'active' | 'disabled' | 'gone';

export interface DueDeliveries {
  endpoint: EndpointState;
  /** Due now, oldest first, at most `limit`. */
  due: string[];
  /** When the next of the others is due (ms); null when none is pending. */
  nextDueAt: number | null;
}

/** The endpoint's deliveries due now, and when the next is due; none for a webhook disabled or deleted. */
export async function dueDeliveries(
  store: Store,
  webhookId: string,
  limit: number,
  now = new Date(),
): Promise<DueDeliveries> {
  const webhook = await findWebhook(store, webhookId);
  if (!webhook) return { endpoint: 'gone', due: [], nextDueAt: null };
  if (!webhook.enabled) return { endpoint: 'disabled', due: [], nextDueAt: null };
  const due = await store.deliveries
    .find({ webhook_id: webhookId, status: 'pending', next_attempt_at: { $lte: now } }, { _id: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  if (due.length === limit) return { endpoint: 'active', due: due.map((row) => row._id), nextDueAt: now.getTime() };
  const next = await store.deliveries
    .findOne({ webhook_id: webhookId, status: 'pending', next_attempt_at: { $gt: now } }, { next_attempt_at: 1 })
    .sort({ next_attempt_at: 1 })
    .lean();
  return { endpoint: 'active', due: due.map((row) => row._id), nextDueAt: next?.next_attempt_at?.getTime() ?? null };
}
