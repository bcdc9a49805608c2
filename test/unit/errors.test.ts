import express, { type Request } from 'express';
import request from 'supertest';

import { answerFor, ApiError, errorHandler, routeNotFound } from '../../api/http/errors';
import { requestLogging } from '../../api/http/request-context';
import { createLogger } from '../../platform/logger';
import { SmpLookupError } from '../../platform/peppol/lookup';

describe('the error envelope', () => {
  it('when an ApiError is made, then status, type and retry advice come from its code', () => {
    const error = new ApiError('body_too_large', 'Too big.', { param: 'lines[0].note', details: { limit_bytes: 10 } });
    expect(error.status).toBe(413);
    expect(error.toEnvelope()).toEqual({
      error: {
        type: 'validation_error',
        code: 'body_too_large',
        message: 'Too big.',
        retry: { retryable: false },
        param: 'lines[0].note',
        details: { limit_bytes: 10 },
      },
    });
  });

  it('when param and details are not given, then the envelope leaves them out', () => {
    expect(new ApiError('route_not_found', 'Nothing here.').toEnvelope().error).not.toHaveProperty('param');
    expect(new ApiError('route_not_found', 'Nothing here.').toEnvelope().error).not.toHaveProperty('details');
  });

  it('when an SMP fails, then the answer says so in a fixed phrase and only the log line carries what happened', () => {
    const info = jest.fn();
    const url = 'http://smp.example/iso6523-actorid-upis%3A%3A0208%3A0987654394';
    const answer = answerFor(new SmpLookupError(url, 'notSmp', 'answered HTTP 503'), {
      log: { info },
    } as unknown as Request);
    expect(answer.toEnvelope().error).toMatchObject({
      code: 'lookup_smp_failed',
      message: `The lookup failed at its second step (SMP, HTTP): the SMP answered with something other than Peppol SMP 1.x XML (${url}). Retry later.`,
      details: { step: 'smp', url, reason: 'answered with something other than Peppol SMP 1.x XML' },
    });
    expect(JSON.stringify(answer.toEnvelope())).not.toContain('503');
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'lookup_smp_failed', cause: `the SMP answered HTTP 503 (${url})` }),
      answer.message,
    );
  });

  describe('the error handler', () => {
    const app = express();
    app.use(requestLogging(createLogger('silent', 'test')));
    app.get('/boom', () => {
      throw new Error('connection string mongodb://secret@db leaked');
    });
    app.get('/limited', () => {
      throw new ApiError('service_degraded', 'Not now.', { headers: { 'Retry-After': '30' } });
    });
    app.use(routeNotFound((path) => (path === '/limited' ? ['GET'] : [])));
    app.use(errorHandler);

    it('when a handler throws something unexpected, then the answer is a 500 envelope without internals', async () => {
      const response = await request(app).get('/boom');
      expect(response.status).toBe(500);
      expect(response.body.error).toMatchObject({
        type: 'api_error',
        code: 'internal_error',
        retry: { retryable: true },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/secret|mongodb|Error:|at /);
      expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
    });

    it('when an ApiError carries headers, then they are sent with the envelope', async () => {
      const response = await request(app).get('/limited');
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('30');
    });

    it('when a known path is asked with another method, then 405 method_not_allowed with Allow', async () => {
      const response = await request(app).post('/limited');
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET');
      expect(response.body.error).toMatchObject({ code: 'method_not_allowed' });
    });

    it('when no route matches, then the answer is a 404 envelope naming the method and path', async () => {
      const response = await request(app).delete('/nowhere');
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ type: 'not_found', code: 'route_not_found' });
      expect(response.body.error.message).toContain('DELETE /nowhere');
    });
  });
});
