import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { startMissingReceiveWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `received-message-reconciler` schedule: a message stored (and
 * receipted) is filed even when the intake could not start its workflow.
 */
export async function reconcileReceivedMessagesWorkflow(): Promise<number> {
  return startMissingReceiveWorkflows();
}
