import { callApi } from '../support/http';
import { sharedStack } from '../support/test-stack';

const getWithHost = (path: string, host: string) => callApi(path, { headers: { Host: host } });

const envelopeShape = {
  error: {
    type: expect.any(String),
    code: expect.any(String),
    message: expect.any(String),
    retry: { retryable: expect.any(Boolean) },
  },
};

describe('public plumbing endpoints on the real stack', () => {
  it('when the stack is up, then health answers ok with a real database round trip, Temporal and the validator reachable, and the rule set in force', async () => {
    const response = await callApi('/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      environment: 'sandbox',
      checks: { db: 'ok', temporal: 'ok', validator: 'ok' },
      rule_set: {
        id: expect.stringMatching(/^eu\.peppol\.bis3:/),
        name: expect.stringMatching(/^Peppol BIS Billing 3\.0\.\d+$/),
        valid_from: expect.any(String),
      },
    });
  });

  it('when a request arrives on a live host, then it is served as the live environment', async () => {
    expect((await getWithHost('/v1/health', 'live.localhost')).body.environment).toBe('live');
    expect((await getWithHost('/v1/health', 'sandbox.localhost')).body.environment).toBe('sandbox');
  });

  it('when the protected-resource document is read, then it names the configured origin of the host asked, whatever the Host header claims', async () => {
    const liveOrigin = sharedStack().apiUrl.replace('127.0.0.1', 'live.localhost');
    for (const host of ['live.localhost:8443', 'live.localhost']) {
      const onLive = await getWithHost('/.well-known/oauth-protected-resource', host);
      expect(onLive.status).toBe(200);
      expect(onLive.body).toEqual({
        resource: liveOrigin,
        bearer_methods_supported: ['header'],
        resource_documentation: `${liveOrigin}/v1/openapi.json`,
      });
    }
    expect((await getWithHost('/.well-known/oauth-protected-resource', 'evil.example')).body.resource).toBe(
      sharedStack().apiUrl,
    );
    expect((await callApi('/.well-known/oauth-protected-resource')).body.resource).toBe(sharedStack().apiUrl);
  });

  it('when the OpenAPI description is read, then it is OpenAPI 3.1 and documents the plumbing endpoints', async () => {
    const { status, body } = await callApi('/v1/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.servers).toEqual([{ url: sharedStack().apiUrl }]);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining(['/.well-known/oauth-protected-resource', '/v1/health', '/v1/openapi.json']),
    );
    expect(body.paths['/v1/health'].get.security).toEqual([]);
    expect(body.paths['/v1/health'].get.responses['200'].content['application/json'].schema).toBeDefined();
    expect(body.components.schemas.ErrorEnvelope).toBeDefined();
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('when the OpenAPI description is read, then every account, workspace and company endpoint is there with its schemas', async () => {
    const { body } = await callApi('/v1/openapi.json');
    const operations: [string, string, number][] = [
      ['post', '/v1/signup', 201],
      ['get', '/v1/account', 200],
      ['post', '/v1/account/keys', 201],
      ['delete', '/v1/account/keys/{prefix}', 200],
      ['get', '/v1/account/audit', 200],
      ['get', '/v1/account/usage', 200],
      ['post', '/v1/workspaces', 201],
      ['get', '/v1/workspaces', 200],
      ['get', '/v1/workspaces/{id}', 200],
      ['patch', '/v1/workspaces/{id}', 200],
      ['delete', '/v1/workspaces/{id}', 200],
      ['get', '/v1/workspaces/{id}/members', 200],
      ['post', '/v1/workspaces/{id}/members', 201],
      ['patch', '/v1/workspaces/{id}/members/{accountId}', 200],
      ['delete', '/v1/workspaces/{id}/members/{accountId}', 200],
      ['post', '/v1/workspaces/{id}/transfer-ownership', 200],
      ['get', '/v1/workspaces/{id}/audit', 200],
      ['post', '/v1/companies', 201],
      ['get', '/v1/companies', 200],
      ['get', '/v1/companies/{id}', 200],
      ['patch', '/v1/companies/{id}', 200],
      ['post', '/v1/documents', 202],
      ['post', '/v1/documents/batch', 202],
      ['post', '/v1/documents/validate', 200],
      ['get', '/v1/documents', 200],
      ['get', '/v1/documents/{id}', 200],
      ['get', '/v1/documents/{id}/history', 200],
      ['get', '/v1/documents/{id}/attachments', 200],
    ];
    for (const [method, path, success] of operations) {
      const operation = body.paths[path]?.[method];
      expect({ path, method, documented: Boolean(operation) }).toEqual({ path, method, documented: true });
      expect(operation.responses[String(success)].content['application/json'].schema).toBeDefined();
      if (['post', 'patch'].includes(method) && !path.endsWith('transfer-ownership') && path !== '/v1/signup') {
        expect(operation.requestBody.content['application/json'].schema).toBeDefined();
      }
      if (path !== '/v1/signup') {
        // A key, or the web app's session cookie.
        expect(operation.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
        expect(operation.responses['401'].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/ErrorEnvelope',
        });
        expect(operation.responses['429']).toBeDefined();
        expect(operation.responses[String(success)].headers['RateLimit-Remaining']).toBeDefined();
      }
      for (const parameter of path.match(/\{(\w+)\}/g) ?? []) {
        expect(operation.parameters.map((p: { name: string }) => p.name)).toContain(parameter.slice(1, -1));
      }
    }
    expect(body.paths['/v1/signup'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SignupRequest',
    });
    expect(body.paths['/v1/documents'].post.responses['422'].description).toContain('document_invalid');
    expect(body.paths['/v1/documents/{id}/ubl'].get.responses['200'].content['application/xml']).toBeDefined();
    expect(body.components.schemas.DocumentRequest.properties).toEqual(
      expect.objectContaining({
        company_id: expect.anything(),
        lines: expect.anything(),
        payment: expect.anything(),
        attachments: expect.anything(),
      }),
    );
    expect(body.paths['/v1/workspaces/{id}/transfer-ownership'].post.requestBody).toBeDefined();
    expect(body.paths['/v1/companies'].post.responses['400'].description).toMatch(
      /invalid_country.*invalid_peppol_id|invalid_peppol_id.*invalid_country/,
    );
  });

  describe('request ids', () => {
    it('when a request has no id, then each response gets a fresh one', async () => {
      const [first, second] = await Promise.all([callApi('/v1/health'), callApi('/v1/health')]);
      expect(first.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
      expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
    });

    it('when a caller sends a sane request id, then it is kept; an unsafe one is replaced', async () => {
      const kept = await callApi('/v1/health', { headers: { 'X-Request-Id': 'trace-1234-abcd' } });
      expect(kept.headers.get('x-request-id')).toBe('trace-1234-abcd');
      const replaced = await callApi('/v1/health', { headers: { 'X-Request-Id': 'bad id with spaces' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
    });

    it('when an error is answered, then it carries a request id too', async () => {
      expect((await callApi('/v1/nothing-here')).headers.get('x-request-id')).toMatch(/^req_/);
    });
  });

  describe('error paths answer with the envelope', () => {
    it('when the route is unknown, then 404 route_not_found', async () => {
      const response = await callApi('/v1/nothing-here');
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject(envelopeShape);
      expect(response.body.error.code).toBe('route_not_found');
    });

    it('when the JSON is malformed, then 400 invalid_json', async () => {
      const response = await callApi('/v1/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name": ',
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(envelopeShape);
      expect(response.body.error).toMatchObject({ type: 'validation_error', code: 'invalid_json' });
    });

    it('when the body is not JSON, then 415 unsupported_media_type', async () => {
      const response = await callApi('/v1/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'name=acme',
      });
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    });

    it("when the body is over the route's limit, then 413 body_too_large naming the limit", async () => {
      const oversized = JSON.stringify({ email: 'big@example.com', name: 'x'.repeat(70 * 1024) });
      const response = await callApi('/v1/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '10.9.9.9' },
        body: oversized,
      });
      expect(response.status).toBe(413);
      expect(response.body.error).toMatchObject({ code: 'body_too_large', details: { limit_bytes: 64 * 1024 } });
    });
  });
});
