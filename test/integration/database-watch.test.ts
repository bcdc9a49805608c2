import { connectDatabase, isDatabaseUnavailable, watchDatabase } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { freePort } from '../../stack/ports';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';

/**
 * The watch every process with a database client runs (platform/database.ts): a connection that stays dead
 * while the database answers a fresh one is stuck (a fault campaign saw an API process hold no socket for
 * minutes after FerretDB restarted), and the process ends for its supervisor to start another; a database
 * that is away itself is waited for. What a request meets meanwhile is 503 (stack-lifecycle.test.ts).
 */
describe('the database watch', () => {
  const logger = createLogger('silent', 'test');

  it('when a process’s connection is dead while the database answers a fresh one, then it is called stuck; when the database itself is away, it is not', async () => {
    const { mongodbUri } = sharedStack();
    const awayUri = `mongodb://127.0.0.1:${await freePort()}/einvoice`;
    // Both connections dead for good, as the stuck API's was; only the first one's database answers.
    const [dead, deadToo] = await Promise.all([connectDatabase(mongodbUri), connectDatabase(mongodbUri)]);
    await Promise.all([dead.close(), deadToo.close()]);
    const calledStuck: string[] = [];
    const timing = { everyMs: 100, stuckAfterMs: 300 };
    const watches = [
      watchDatabase(dead, mongodbUri, logger, () => calledStuck.push('reachable database'), timing),
      watchDatabase(deadToo, awayUri, logger, () => calledStuck.push('database away'), timing),
    ];
    try {
      await until(
        'the stuck connection called stuck',
        () => Promise.resolve(calledStuck),
        (called) => called.includes('reachable database'),
        20_000,
        50,
      );
      // Both were checked on the same clock: the other had as many chances to be called stuck, and was not.
      expect(calledStuck).not.toContain('database away');
    } finally {
      for (const watch of watches) watch.stop();
    }
  });

  it('when the driver says the database cannot be reached, then that is told apart from a refused request', async () => {
    const uri = `mongodb://127.0.0.1:${await freePort()}/einvoice`;
    const error = await connectDatabase(uri).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(new Error('E11000 duplicate key'))).toBe(false);
    // What the driver let escape in a CI run: a write to the socket FerretDB had closed, as Node reports it.
    const closed = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    closed.stack = `Error: This socket has been ended by the other party\n    at Connection.writeCommand (/app/node_modules/mongodb/src/cmap/connection.ts:722:23)`;
    expect(isDatabaseUnavailable(closed)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBe(false);
  });
});
