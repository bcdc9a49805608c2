import type { Connection as DbConnection } from 'mongoose';
import request from 'supertest';

import { z } from '../../api/contract/openapi';
import type { RouteTable } from '../../api/public/route-table';
import type { HealthProbes } from '../../api/public/routes/plumbing';
import { connectDatabase, pingDatabase } from '../../platform/database';
import { officialValidator, type RuleSet } from '../../platform/official-validator';
import { freePort } from '../../stack/ports';
import { createStore } from '../../store';
import { callAs } from '../support/accounts';
import { sendingAccount, waitForStatus } from '../support/documents';
import { inProcessApp } from '../support/in-process-api';
import { sharedStack } from '../support/test-stack';
import { validFixtures } from '../fixtures/documents';

/** The app factory, driven in-process, with probes against real and stopped services. */
describe('the app factory', () => {
  let db: DbConnection;
  beforeAll(async () => {
    db = await connectDatabase(sharedStack().mongodbUri);
  });
  afterAll(async () => {
    await db.close();
  });

  const ruleSet: RuleSet = { id: 'eu.peppol.bis3:2026.5', name: 'Peppol BIS Billing 3.0.21', valid_from: '2026-08-17' };
  const healthy: HealthProbes = {
    db: () => Promise.resolve(true),
    temporal: () => Promise.resolve(true),
    validator: () => Promise.resolve(ruleSet),
  };
  const appWith = (probes: typeof healthy, extraRoutes?: (routes: RouteTable) => void, store = createStore(db)) =>
    inProcessApp(db, {}, { probes, store, ...(extraRoutes && { extraRoutes }) });

  it('when the database connection is gone, then health is 503 degraded with checks.db error and the envelope', async () => {
    const closed = await connectDatabase(sharedStack().mongodbUri);
    await closed.close();
    const app = appWith({ ...healthy, db: () => pingDatabase(closed) });

    const response = await request(app).get('/v1/health');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({
      status: 'degraded',
      checks: { db: 'error', temporal: 'ok' },
      error: { type: 'api_error', code: 'service_degraded', retry: { retryable: true } },
    });
    expect(response.body.error.message).toContain('db');
  });

  it('when the official validator does not answer, then health is 503 degraded with checks.validator error and no rule set', async () => {
    const gone = officialValidator(`http://127.0.0.1:${await freePort()}`);
    const app = appWith({ ...healthy, validator: () => gone.ruleSet() });

    const response = await request(app).get('/v1/health');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({
      status: 'degraded',
      checks: { db: 'ok', temporal: 'ok', validator: 'error' },
      rule_set: null,
    });
    expect(response.body.error.message).toContain('validator');
  });

  it('when a probe fails unexpectedly, then 500 internal_error without the failure text', async () => {
    const app = appWith({ ...healthy, db: () => Promise.reject(new Error('password=hunter2 in stack trace')) });
    const response = await request(app).get('/v1/health');
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('internal_error');
    expect(response.text).not.toContain('hunter2');
  });

  it('when one entry of a batch fails on our side, then that entry answers internal_error, the others stand, and its retry sends it once', async () => {
    const sender = await sendingAccount();
    const store = createStore(db);
    const app = appWith(healthy, undefined, store);
    const insertOne = store.contents.collection.insertOne.bind(store.contents.collection);
    const failing = jest.spyOn(store.contents.collection, 'insertOne').mockImplementation(((row: {
      input: { number: string };
    }) => {
      if (row.input.number === 'INV-FAILS') return Promise.reject(new Error('connection reset by peer'));
      return insertOne(row);
    }) as never);
    const entry = (number: string) => ({
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      number,
      idempotency_key: `key-${number}`,
    });
    const batch = () =>
      request(app)
        .post('/v1/documents/batch')
        .set('Authorization', `Bearer ${sender.key}`)
        .send([entry('INV-1'), entry('INV-FAILS'), entry('INV-3')]);

    const first = await batch();
    failing.mockRestore();
    expect(first.status).toBe(202);
    expect(first.body[0]).toMatchObject({ status: 'queued' });
    expect(first.body[1].error).toMatchObject({ code: 'internal_error', retry: { retryable: true } });
    expect(first.text).not.toContain('connection reset');
    expect(first.body[2]).toMatchObject({ status: 'queued' });
    const listed = await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`);
    expect(listed.body.data.map((document: { number: string }) => document.number).sort()).toEqual(['INV-1', 'INV-3']);

    const retried = await batch();
    expect(retried.body.map((answer: { id: string }) => answer.id)).toEqual([
      first.body[0].id,
      expect.stringMatching(/^doc_/),
      first.body[2].id,
    ]);
    await waitForStatus(sender.key, retried.body[1].id, sender.companyId, ['delivered']);
    const after = await callAs(sender.key, `/v1/documents?company_id=${sender.companyId}`);
    expect(after.body.data).toHaveLength(3);
  });

  describe('an operation in its deprecation notice period (a route that exists only here)', () => {
    const since = new Date('2026-10-01T00:00:00Z');
    const sunset = new Date('2027-04-01T00:00:00Z');
    const app = () =>
      appWith(healthy, (routes) =>
        routes.add({
          method: 'get',
          path: '/v1/test-only/old',
          operationId: 'oldOperation',
          summary: 'An operation on its way out',
          tags: ['Test'],
          public: true,
          deprecated: { since, sunset, notice: 'https://example.com/deprecations/old' },
          query: z.object({ n: z.coerce.number().int().optional() }).strict(),
          responses: { 200: { description: 'Still works', schema: z.object({ ok: z.literal(true) }) } },
          handler: () => ({ status: 200, body: { ok: true } }),
        }),
      );

    it('when it is called, then its answers carry Deprecation, Sunset and Link rel=deprecation, errors included', async () => {
      for (const path of ['/v1/test-only/old', '/v1/test-only/old?n=x']) {
        const response = await request(app()).get(path);
        expect(response.headers.deprecation).toBe(`@${since.getTime() / 1000}`);
        expect(response.headers.sunset).toBe('Thu, 01 Apr 2027 00:00:00 GMT');
        expect(response.headers.link).toBe('<https://example.com/deprecations/old>; rel="deprecation"');
      }
    });

    it('when the description is read, then the operation is marked deprecated and the others are not', async () => {
      const { body } = await request(app()).get('/v1/openapi.json');
      expect(body.paths['/v1/test-only/old'].get.deprecated).toBe(true);
      expect(body.paths['/v1/test-only/old'].get.responses['200'].headers).toHaveProperty('Sunset');
      expect(body.paths['/v1/documents'].post.deprecated).toBeUndefined();
    });
  });
});
