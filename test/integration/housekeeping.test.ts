import { ScheduleNotFoundError, type Connection } from '@temporalio/client';

import { ensureSchedules } from '../../worker/temporal-setup';
import { CHORES, RETIRED_SCHEDULES, TASK_QUEUE } from '../../workflows/shared';
import { sharedStack } from '../support/test-stack';
import { sharedTemporalClient } from '../support/temporal';
import { until } from '../support/until';

const temporal = sharedTemporalClient();

/**
 * The housekeeping chores (workflows/shared.ts, CHORES) on the shared stack: one schedule per chore, each starting
 * the one housekeeping workflow with its chore, kept in line by the worker's start.
 */
describe('housekeeping schedules', () => {
  it('when the worker has started, then every chore has its schedule, starting the housekeeping workflow with that chore', async () => {
    for (const [chore, { every }] of Object.entries(CHORES)) {
      const schedule = await temporal().schedule.getHandle(chore).describe();
      expect(schedule.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'housekeepingWorkflow',
        args: [{ chore }],
        taskQueue: TASK_QUEUE,
      });
      expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: expect.any(Number) })]);
      expect(every).toMatch(/minute|hour/);
    }
  });

  it('when a schedule still starts what an older build did, then the next worker start brings it in line, and a run of it completes', async () => {
    const handle = temporal().schedule.getHandle('rate-window-cleanup');
    await handle.update((previous) => ({
      ...previous,
      action: {
        type: 'startWorkflow',
        workflowType: 'cleanupRateWindowsWorkflow',
        args: [],
        taskQueue: TASK_QUEUE,
        workflowId: 'rate-window-cleanup',
      },
    }));
    expect((await handle.describe()).action).toMatchObject({ workflowType: 'cleanupRateWindowsWorkflow' });

    // The shared client's connection is a Connection (test/support/temporal.ts); the client types it loosely.
    await ensureSchedules(temporal().connection as Connection, sharedStack().namespace);
    expect((await handle.describe()).action).toMatchObject({
      workflowType: 'housekeepingWorkflow',
      args: [{ chore: 'rate-window-cleanup' }],
    });

    const before = (await handle.describe()).info.recentActions.length;
    await handle.trigger();
    const ran = await until(
      'the triggered run to complete',
      async () => (await handle.describe()).info.recentActions,
      (actions) => actions.length > before,
      30_000,
    );
    const started = ran.at(-1)!.action.workflow;
    await expect(
      temporal().workflow.getHandle(started.workflowId, started.firstExecutionRunId).result(),
    ).resolves.toEqual(expect.any(Number));
  });

  it('when a schedule of a retired chore remains (the document reconciler, gone with Update-with-Start), then the next worker start deletes it', async () => {
    const [retired] = RETIRED_SCHEDULES;
    await temporal().schedule.create({
      scheduleId: retired!,
      spec: { intervals: [{ every: '1 hour' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'housekeepingWorkflow',
        args: [{ chore: retired }],
        taskQueue: TASK_QUEUE,
        workflowId: retired!,
      },
    });
    await ensureSchedules(temporal().connection as Connection, sharedStack().namespace);
    await expect(temporal().schedule.getHandle(retired!).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});
