import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { startMissingKycReviews } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/**
 * Run by the `kyc-review-reconciler` schedule: every pending submission has
 * a review an operator can decide, even when the API stored it and then
 * could not start its workflow.
 */
export async function reconcileKycReviewsWorkflow(): Promise<number> {
  return startMissingKycReviews();
}
