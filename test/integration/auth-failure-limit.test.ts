import mongoose from 'mongoose';

import { inProcessApp, listening } from '../support/in-process-api';
import { sharedStack } from '../support/test-stack';

/**
 * Failed authentications are limited per client address by AUTH_FAILURE_LIMIT:
 * past it, 429 with Retry-After instead of 401, whatever key is tried.
 */
describe('the failed-authentication limit', () => {
  let db: mongoose.Connection;
  let api: Awaited<ReturnType<typeof listening>>;

  beforeAll(async () => {
    db = await mongoose.createConnection(sharedStack().mongodbUri).asPromise();
    api = await listening(inProcessApp(db, { AUTH_FAILURE_LIMIT: '3', TRUSTED_PROXIES: 'loopback' }));
  });
  afterAll(async () => {
    await api.close();
    await db.close();
  });

  it('when an address fails more often than AUTH_FAILURE_LIMIT in a minute, then it gets 429 with Retry-After instead of 401', async () => {
    // Compared within one fixed window (the in-process API shares this clock): attempts that straddle the minute's end start a fresh one.
    const minute = () => Math.floor(Date.now() / 60_000);
    for (let round = 0; round < 3; round += 1) {
      const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
      const attempt = () => fetch(`${api.url}/v1/account`, { headers: { Authorization: 'Bearer ps_test_wrongwrongwrong', 'X-Forwarded-For': address } });
      const started = minute();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await attempt()).status);
      const limited = await attempt();
      if (minute() !== started) continue;
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
      return;
    }
    throw new Error('no round of attempts fell within one minute');
  });
});
