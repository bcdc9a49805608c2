import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { canConnect, freePort } from '../../stack/ports';
import { until } from '../support/until';

/** The production shape's front proxy between a client and an upstream that echoes what it was sent. */
describe('the front proxy', () => {
  let upstream: http.Server;
  let front: ChildProcess;
  let frontUrl: string;
  const seen: { headers: http.IncomingHttpHeaders; body: string; method?: string; url?: string }[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body, method: req.method, url: req.url });
        res
          .writeHead(201, { 'Content-Type': 'application/json', 'X-Upstream': 'yes' })
          .end(JSON.stringify({ echoed: body }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    front = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.resolve(__dirname, '../../stack/production/front-proxy.ts'),
        '--port',
        String(port),
        '--upstream',
        String((upstream.address() as AddressInfo).port),
      ],
      { stdio: 'ignore' },
    );
    frontUrl = `http://127.0.0.1:${port}`;
    await until(
      'the front proxy listening',
      () => canConnect(port),
      (listening) => listening,
      20_000,
      100,
    );
  }, 30_000);

  afterAll(async () => {
    front.kill('SIGTERM');
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('passes method, path, Host and body through, and the answer back with its status and headers', async () => {
    // node:http, since fetch will not send a Host of its own choosing.
    const response = await new Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        const request = http.request(
          `${frontUrl}/v1/documents?x=1`,
          { method: 'POST', headers: { Host: 'live.localhost', 'Content-Type': 'application/json' } },
          (answer) => {
            let body = '';
            answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
            answer.on('end', () => resolve({ status: answer.statusCode, headers: answer.headers, body }));
          },
        );
        request.once('error', reject);
        request.end('{"a":1}');
      },
    );
    expect(response.status).toBe(201);
    expect(response.headers['x-upstream']).toBe('yes');
    expect(JSON.parse(response.body)).toEqual({ echoed: '{"a":1}' });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/documents?x=1',
      body: '{"a":1}',
      headers: expect.objectContaining({ host: 'live.localhost' }),
    });
  });

  it('replaces the X-Forwarded-For a client sends with the address it saw, so a client cannot choose whom its limits count', async () => {
    await fetch(`${frontUrl}/v1/health`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
    expect(seen.at(-1)!.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('when the upstream is gone, then it answers 502 with Retry-After, and sends nothing again', async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    upstream.closeAllConnections();
    const before = seen.length;
    const response = await fetch(`${frontUrl}/v1/documents`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(seen.length).toBe(before);
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  });
});
