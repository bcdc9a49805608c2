import { Client, Connection } from '@temporalio/client';
import type { Connection as DbConnection } from 'mongoose';
import request from 'supertest';

import { createApp } from '../../api/app';
import { loadConfig } from '../../platform/config';
import { connectDatabase, pingDatabase } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { createStore } from '../../store';
import { sharedStack } from '../support/test-stack';

/** The app factory, driven in-process, with probes against real and stopped services. */
describe('the app factory', () => {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const logger = createLogger('silent', 'test');
  let db: DbConnection;
  beforeAll(async () => {
    db = await connectDatabase(sharedStack().mongodbUri);
  });
  afterAll(async () => {
    await db.close();
  });

  it('when the database connection is gone, then health is 503 degraded with checks.db error and the envelope', async () => {
    const closed = await connectDatabase(sharedStack().mongodbUri);
    await closed.close();
    const app = createApp({
      config,
      logger,
      store: createStore(db),
      temporal: new Client({ connection: Connection.lazy({ address: sharedStack().temporalAddress }) }),
      probes: { db: () => pingDatabase(closed), temporal: () => Promise.resolve(true) },
    });

    const response = await request(app).get('/v1/health');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({
      status: 'degraded',
      checks: { db: 'error', temporal: 'ok' },
      error: { type: 'api_error', code: 'service_degraded', retry: { retryable: true } },
    });
    expect(response.body.error.message).toContain('db');
  });

  it('when a probe fails unexpectedly, then 500 internal_error without the failure text', async () => {
    const app = createApp({
      config,
      logger,
      store: createStore(db),
      temporal: new Client({ connection: Connection.lazy({ address: sharedStack().temporalAddress }) }),
      probes: {
        db: () => Promise.reject(new Error('password=hunter2 in stack trace')),
        temporal: () => Promise.resolve(true),
      },
    });
    const response = await request(app).get('/v1/health');
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('internal_error');
    expect(response.text).not.toContain('hunter2');
  });
});
