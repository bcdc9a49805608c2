import mongoose from 'mongoose';

import { inProcessApp, listening } from '../support/in-process-api';
import { earlyInAWindow } from '../support/rate-windows';
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
    await earlyInAWindow();
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
    const attempt = () =>
      fetch(`${api.url}/v1/account`, {
        headers: { Authorization: 'Bearer ps_test_wrongwrongwrong', 'X-Forwarded-For': address },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await attempt()).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attempt();
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
  });
});
