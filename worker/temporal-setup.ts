import { Client, ScheduleAlreadyRunning, ScheduleNotFoundError, type Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { RETIRED_SCHEDULES, SCHEDULES, SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../workflows/shared';

/**
 * Registers the project's search attributes on any Temporal server (the dev
 * server gets them as start flags too). Adding is idempotent: existing ones are skipped.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const missing = async () => {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    return Object.entries(SEARCH_ATTRIBUTE_TYPES).filter(([name]) => !(name in (existing.customAttributes ?? {})));
  };
  const toAdd = await missing();
  if (toAdd.length === 0) return;
  try {
    await addSearchAttributes(connection, namespace, toAdd);
  } catch (err) {
    // Several workers starting at once on a new server: another one may have added them in between.
    if ((await missing()).length > 0) throw err;
  }
}

/**
 * Adds the search attributes named (all of the project's by default) without asking which exist: a server that cannot list them (the time-skipping test server) still adds them.
 * @internal
 */
export async function addSearchAttributes(
  connection: Connection,
  namespace: string,
  attributes = Object.entries(SEARCH_ATTRIBUTE_TYPES),
): Promise<void> {
  const { IndexedValueType } = temporal.api.enums.v1;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      attributes.map(([name, type]) => [
        name,
        IndexedValueType[`INDEXED_VALUE_TYPE_${type.toUpperCase()}` as keyof typeof IndexedValueType],
      ]),
    ),
  });
}

/**
 * Creates the project's schedules if they do not exist yet (every worker start calls this), brings one that
 * exists in line when what it starts changed (a new build moved its chore to another workflow), and deletes the
 * retired ones (their chores' activities are gone).
 */
export async function ensureSchedules(connection: Connection, namespace: string): Promise<void> {
  const client = new Client({ connection, namespace });
  for (const schedule of SCHEDULES) {
    const spec = 'every' in schedule ? { intervals: [{ every: schedule.every }] } : { calendars: [schedule.calendar] };
    const action = {
      type: 'startWorkflow' as const,
      workflowType: schedule.workflowType,
      args: schedule.args ?? [],
      taskQueue: TASK_QUEUE,
      workflowId: schedule.id,
    };
    try {
      await client.schedule.create({ scheduleId: schedule.id, spec, action });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const handle = client.schedule.getHandle(schedule.id);
      const existing = (await handle.describe()).action;
      const starts = (what: { workflowType?: string; args?: readonly unknown[] }) =>
        JSON.stringify([what.workflowType, what.args ?? []]);
      if (existing.type !== 'startWorkflow' || starts(existing) !== starts(action))
        await handle.update((previous) => ({ ...previous, spec, action }));
    }
  }
  for (const retired of RETIRED_SCHEDULES) {
    await client.schedule
      .getHandle(retired)
      .delete()
      .catch((err: unknown) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
  }
}
