import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { reconcileEventFanOut } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `event-fanout-reconciler` schedule: every event reaches the
 * webhooks subscribed to it, even when the process that recorded it could
 * not fan it out.
 */
export async function reconcileEventFanOutWorkflow(): Promise<{ events: number; started: number }> {
  return reconcileEventFanOut();
}
