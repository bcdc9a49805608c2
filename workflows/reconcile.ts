import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { startMissingSendWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `queued-document-reconciler` schedule: a document accepted and
 * stored is never lost, even when the API could not start its workflow.
 */
export async function reconcileQueuedDocumentsWorkflow(): Promise<number> {
  return startMissingSendWorkflows();
}
