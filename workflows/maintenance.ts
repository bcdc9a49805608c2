import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { deleteExpiredRateWindows } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * Run by the `rate-window-cleanup` schedule: FerretDB has no TTL indexes, so
 * ended rate-limit windows are deleted here. Returns how many were deleted.
 */
export async function cleanupRateWindowsWorkflow(): Promise<number> {
  return deleteExpiredRateWindows();
}
