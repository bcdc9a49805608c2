import { setWorkflowOptions } from '@temporalio/workflow';

/**
 * The worker pins a workflow to the build that started it (worker/deployment.ts): a new build changes its code
 * freely, and the old build's workers stay until their workflows finish. A workflow that can wait for days (an
 * operator's review, a registration retried for as long as it takes, the month's reports retried for ten days, a
 * webhook endpoint's deliveries for as long as the webhook exists)
 * would hold an old build up that long; it moves to the current build at its next task instead, so a change of
 * its shape goes behind `patched()` (and later `deprecatePatch()`), and the replay test holds it to that.
 */
export function movesToNewBuilds<Args extends unknown[], Result>(workflow: (...args: Args) => Promise<Result>): void {
  setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, workflow);
}
