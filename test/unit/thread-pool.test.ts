import { threadPool, ThreadPoolBusyError, type ThreadPool } from '../../platform/thread-pool';
import type * as Tasks from '../support/thread-pool-tasks';

/** The API's worker threads: tasks run off the event loop, in order, with a bounded queue. */
describe('threadPool', () => {
  let pool: ThreadPool<typeof Tasks>;
  beforeEach(() => {
    pool = threadPool<typeof Tasks>(require.resolve('../support/thread-pool-tasks'), { threads: 1, maxQueue: 2 });
  });
  afterEach(() => pool.close());

  it('when a task runs, then its result comes back, and a task that throws rejects with its message', async () => {
    expect(await pool.run('add', { a: 2, b: 3 })).toBe(5);
    await expect(pool.run('fail', { why: 'refused on purpose' })).rejects.toThrow(
      /task fail failed in a worker thread: .*refused on purpose/,
    );
  });

  it('when the queue is full, then the next task is refused at once and the queued ones still run', async () => {
    const running = pool.run('busy', { ms: 300 });
    const queued = [pool.run('add', { a: 1, b: 1 }), pool.run('add', { a: 2, b: 2 })];
    await expect(pool.run('add', { a: 3, b: 3 })).rejects.toBeInstanceOf(ThreadPoolBusyError);
    expect(await Promise.all([running, ...queued])).toEqual([300, 2, 4]);
  });

  it('when a thread dies, then its task fails and a new thread takes the next one', async () => {
    await expect(pool.run('die', {})).rejects.toThrow(/exited/);
    expect(await pool.run('add', { a: 20, b: 22 })).toBe(42);
  });
});
