import express from 'express';
import request from 'supertest';

import { ApiError, errorHandler, routeNotFound } from '../../api/errors';
import { requestLogging } from '../../api/request-context';
import { createLogger } from '../../platform/logger';

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
      expect(response.body.error).toMatchObject({ type: 'api_error', code: 'internal_error', retry: { retryable: true } });
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
