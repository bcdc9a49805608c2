import { SCHEDULES, SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../../workflows/shared';
import { withStore } from '../support/accounts';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

describe('the worker on the real stack', () => {
  const client = sharedTemporalClient();

  it('when the cleanup schedule runs, then expired rate-limit windows are deleted and current ones kept', async () => {
    const now = Date.now();
    await withStore(async (store) => {
      await store.rateSlots.create({
        _id: `test:expired@${now}#1`,
        window: `test:expired@${now}`,
        expires_at: new Date(now - 60_000),
      });
      await store.rateSlots.create({
        _id: `test:current@${now}#1`,
        window: `test:current@${now}`,
        expires_at: new Date(now + 600_000),
      });
    });
    const schedule = client().schedule.getHandle('rate-window-cleanup');
    const before = (await schedule.describe()).info.recentActions.length;
    await schedule.trigger();

    await withStore(async (store) => {
      await until(
        'the expired window deleted',
        () => store.rateSlots.exists({ _id: `test:expired@${now}#1` }),
        (exists) => exists === null,
        20_000,
      );
      expect(await store.rateSlots.exists({ _id: `test:current@${now}#1` })).not.toBeNull();
    });
    expect((await schedule.describe()).info.recentActions.length).toBeGreaterThan(before);
  });

  it('when the worker has started, then every project schedule exists', async () => {
    for (const { id, workflowType } of SCHEDULES) {
      const description = await client().schedule.getHandle(id).describe();
      expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType, taskQueue: TASK_QUEUE });
    }
  });

  it('when the stack is up, then the project search attributes are registered for the Web UI', async () => {
    const { customAttributes } = await client().connection.operatorService.listSearchAttributes({
      namespace: sharedStack().namespace,
    });
    expect(Object.keys(customAttributes ?? {})).toEqual(expect.arrayContaining(Object.keys(SEARCH_ATTRIBUTE_TYPES)));
  });
});
