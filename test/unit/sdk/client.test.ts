import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ApiError, createClient, OutcomeTimeoutError } from '../../../sdk/src';
import { retryingFetch, retryAfterMs } from '../../../sdk/src/retry';

/**
 * The SDK's client against a tiny local HTTP server that scripts its answers:
 * retries, Retry-After, idempotency keys, typed errors and paging, without the
 * real API (whose limiter would not answer 429 on demand).
 */

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

class ScriptedServer {
  readonly seen: Seen[] = [];
  private answers: Answer[] = [];
  private server: http.Server | undefined;
  url = '';

  answer(...answers: Answer[]): this {
    this.answers.push(...answers);
    return this;
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        this.seen.push({ method: request.method!, url: request.url!, headers: request.headers, at: Date.now() });
        const answer = this.answers.shift() ?? { status: 200, body: {} };
        response
          .writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers })
          .end(JSON.stringify(answer.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

const envelope = (code: string, message = 'no') => ({
  error: { type: 'rate_limit_error', code, message, retry: { retryable: true } },
});
const company = { id: 'cmp_1', name: 'Example', country: 'BE' };

describe('the SDK client', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = new ScriptedServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('when the API answers 429 with Retry-After: 1, then the request is sent again after a second, with the key and the same Idempotency-Key', async () => {
    server.answer(
      { status: 429, headers: { 'Retry-After': '1' }, body: envelope('rate_limited') },
      { status: 201, body: company },
    );
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    const created = await client.companies.create({ name: 'Example', country: 'BE', address: {} });
    expect(created).toEqual(company);
    const [first, second] = server.seen;
    expect(server.seen).toHaveLength(2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
    expect(first!.headers.authorization).toBe('Bearer ps_test_abc');
    expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  });

  it('when the caller names an Idempotency-Key, then it is the one sent', async () => {
    server.answer({ status: 202, body: { id: 'doc_1' } });
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    await client.documents.send({} as Parameters<typeof client.documents.send>[0], { idempotencyKey: 'order-1187' });
    expect(server.seen[0]!.headers['idempotency-key']).toBe('order-1187');
  });

  it('when the document carries its idempotency_key, then the header is that key, not a fresh one the service would find different', async () => {
    server.answer({ status: 202, body: { id: 'doc_1', status: 'queued' } });
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    await client.documents.send({ idempotency_key: 'order-1188' } as Parameters<typeof client.documents.send>[0]);
    expect(server.seen[0]!.headers['idempotency-key']).toBe('order-1188');
  });

  it('when 5xx answers keep coming, then it tries maxRetries more times and throws the typed error with code, status and request id', async () => {
    const failing = {
      status: 503,
      headers: { 'X-Request-Id': 'req_42' },
      body: {
        error: {
          type: 'api_error',
          code: 'server_busy',
          message: 'busy',
          retry: { retryable: true },
          details: { queued: 64 },
        },
      },
    };
    server.answer(failing, failing, failing, failing);
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url, maxRetries: 2 });
    const error = await client.documents.get('doc_1', 'cmp_1').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 503,
      code: 'server_busy',
      type: 'api_error',
      message: 'busy',
      requestId: 'req_42',
      retryable: true,
      details: { queued: 64 },
    });
    expect(server.seen).toHaveLength(3);
  });

  it('when a 4xx other than 429 answers, then nothing is retried and the error carries param', async () => {
    server.answer({
      status: 400,
      body: {
        error: {
          type: 'validation_error',
          code: 'invalid_field',
          message: 'bad',
          retry: { retryable: false },
          param: 'address.city',
        },
      },
    });
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    await expect(client.webhooks.get('whk_1')).rejects.toMatchObject({
      status: 400,
      code: 'invalid_field',
      param: 'address.city',
    });
    expect(server.seen).toHaveLength(1);
  });

  it('when Retry-After asks for longer than the longest wait, then the 429 is thrown at once', async () => {
    server.answer({ status: 429, headers: { 'Retry-After': '3600' }, body: envelope('rate_limited') });
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    await expect(client.webhooks.list()).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      retryAfterSeconds: 3600,
    });
    expect(server.seen).toHaveLength(1);
  });

  it('when a POST without an Idempotency-Key fails with 503, then it is never sent again', async () => {
    server.answer({ status: 503, body: envelope('server_busy') });
    const fetchWithRetries = retryingFetch((request) => fetch(request), {
      maxRetries: 3,
      sleep: () => Promise.resolve(),
    });
    const response = await fetchWithRetries(new Request(`${server.url}/v1/anything`, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('when the caller aborts while a retry waits, then the wait ends at once and nothing is sent again', async () => {
    server.answer({ status: 429, headers: { 'Retry-After': '20' }, body: envelope('rate_limited') });
    const fetchWithRetries = retryingFetch((request) => fetch(request), { maxRetries: 3 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('gave up')), 200);
    const started = Date.now();
    await expect(
      fetchWithRetries(new Request(`${server.url}/v1/companies`, { signal: controller.signal })),
    ).rejects.toThrow('gave up');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.seen).toHaveLength(1);
  });

  it('when a list spans pages, then the iterator follows next_cursor until has_more is false', async () => {
    server.answer(
      { status: 200, body: { data: [{ id: 'doc_1' }, { id: 'doc_2' }], has_more: true, next_cursor: 'c2' } },
      { status: 200, body: { data: [{ id: 'doc_3' }], has_more: false, next_cursor: 'c3' } },
    );
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    const ids: string[] = [];
    for await (const document of client.documents.list({ company_id: 'cmp_1', limit: 2 })) ids.push(document.id);
    expect(ids).toEqual(['doc_1', 'doc_2', 'doc_3']);
    expect(server.seen.map((request) => request.url)).toEqual([
      '/v1/documents?company_id=cmp_1&limit=2',
      '/v1/documents?company_id=cmp_1&limit=2&cursor=c2',
    ]);
  });

  it("when one page is asked for, then it is the API's answer as it came, cursor and all, and nothing more is fetched", async () => {
    const answered = { data: [{ id: 'doc_3' }], has_more: true, next_cursor: 'c4' };
    server.answer({ status: 200, body: answered });
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    expect(await client.inbox.page({ company_id: 'cmp_1', acknowledged: 'false', cursor: 'c3' })).toEqual(answered);
    expect(server.seen.map((request) => request.url)).toEqual([
      '/v1/inbox?company_id=cmp_1&acknowledged=false&cursor=c3',
    ]);
  });

  it('when a document is waited for, then it is read until delivered or failed and answered as last read', async () => {
    const read = (status: string) => ({ status: 200, body: { id: 'doc_1', status } });
    server.answer(read('queued'), read('sending'), read('sending'), read('failed'));
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    expect(await client.documents.outcome('doc_1', 'cmp_1', { intervalMs: 10 })).toEqual({
      id: 'doc_1',
      status: 'failed',
    });
    expect(server.seen.map((request) => request.url)).toEqual(Array(4).fill('/v1/documents/doc_1?company_id=cmp_1'));
  });

  it('when a document stays queued past the time limit, then OutcomeTimeoutError names it and its status; an abort ends the wait at once', async () => {
    server.answer(...Array(20).fill({ status: 200, body: { id: 'doc_1', status: 'queued' } }));
    const client = createClient({ apiKey: 'ps_test_abc', baseUrl: server.url });
    const timedOut = client.documents.outcome('doc_1', 'cmp_1', { intervalMs: 20, timeoutMs: 100 });
    await expect(timedOut).rejects.toThrow(OutcomeTimeoutError);
    await expect(timedOut).rejects.toMatchObject({ documentId: 'doc_1', status: 'queued', timeoutMs: 100 });

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('gave up')), 50);
    const started = Date.now();
    await expect(
      client.documents.outcome('doc_1', 'cmp_1', { intervalMs: 60_000, signal: controller.signal }),
    ).rejects.toThrow('gave up');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('when Retry-After is a date or unreadable, then it is read as a wait or ignored', () => {
    const now = Date.parse('2026-11-25T22:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Wed, 25 Nov 2026 22:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
