import { randomBytes } from 'node:crypto';

import type { Connection as DbConnection } from 'mongoose';
import request from 'supertest';

import { connectDatabase } from '../../platform/database';
import { createStore } from '../../store';
import { inProcessApp } from '../support/in-process-api';
import { sharedStack } from '../support/test-stack';

/**
 * Per-address limits count the client a trusted proxy names in
 * X-Forwarded-For, and only then. The API runs in this process (supertest
 * reaches it from loopback) on a database of its own, so the peer's own
 * bucket is not shared with the rest of the suite.
 */
describe('the client address behind proxies (TRUSTED_PROXIES)', () => {
  let db: DbConnection;
  beforeAll(async () => {
    const uri = new URL(sharedStack().mongodbUri);
    uri.pathname = `/trusted_proxies_${randomBytes(4).toString('hex')}`;
    db = await connectDatabase(uri.toString());
  });
  beforeEach(async () => {
    await createStore(db).rateSlots.deleteMany({});
  });
  afterAll(async () => {
    await db.dropDatabase();
    await db.close();
  });

  /** An API with one signup per address per hour. */
  const apiTrusting = (trustedProxies?: string) =>
    inProcessApp(db, { SIGNUP_LIMIT: '1', ...(trustedProxies !== undefined && { TRUSTED_PROXIES: trustedProxies }) });

  // The per-IP signup limit counts a request before its body is read: an empty body (400) counts too.
  const signupClaimingToBe = (app: ReturnType<typeof inProcessApp>, forwardedFor: string) =>
    request(app).post('/v1/signup').set('X-Forwarded-For', forwardedFor).send({});

  it.each([
    ['not set', undefined],
    ['none', 'none'],
    ['another proxy', '192.0.2.0/24'],
  ])(
    'when TRUSTED_PROXIES is %s, then X-Forwarded-For from a loopback peer does not choose the per-IP bucket',
    async (_what, trustedProxies) => {
      const api = apiTrusting(trustedProxies);
      expect((await signupClaimingToBe(api, '10.1.1.1')).status).toBe(400);
      const other = await signupClaimingToBe(api, '10.2.2.2');
      expect(other.status).toBe(429);
      expect(other.body.error.code).toBe('rate_limit_exceeded');
    },
  );

  it('when TRUSTED_PROXIES is loopback, then the address a loopback proxy forwards has its own bucket', async () => {
    const api = apiTrusting('loopback');
    expect((await signupClaimingToBe(api, '10.3.3.3')).status).toBe(400);
    expect((await signupClaimingToBe(api, '10.4.4.4')).status).toBe(400);
    expect((await signupClaimingToBe(api, '10.3.3.3')).status).toBe(429);
  });
});
