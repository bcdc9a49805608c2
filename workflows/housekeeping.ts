import { activitiesOn } from './activities-on';
import { CHORES, type HousekeepingInput } from './shared';

/**
 * One workflow for every housekeeping schedule (workflows/shared.ts, CHORES): the chore's one activity, on the
 * housekeeping queue (its slots keep the reconcilers from crowding the documents' database moves), within
 * its time limit, tried three times; the schedule's next run comes soon after anyway. Returns what the activity
 * reports (how many it deleted or started), which the Web UI shows as the run's result.
 */
export async function housekeepingWorkflow({ chore }: HousekeepingInput): Promise<unknown> {
  const { activity, startToCloseTimeout } = CHORES[chore];
  const activities = activitiesOn('housekeeping', {
    startToCloseTimeout,
    retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
  });
  const run: () => Promise<unknown> = activities[activity];
  return run();
}
