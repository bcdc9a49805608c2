import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { startMissingResponseWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `invoice-response-reconciler` schedule: an Invoice Response
 * stored (and its document's response claimed) is sent even when its request
 * could not start its workflow.
 */
export async function reconcileInvoiceResponsesWorkflow(): Promise<number> {
  return startMissingResponseWorkflows();
}
