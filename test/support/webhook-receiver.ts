import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { callAs } from './accounts';
import { until } from './until';

export interface Received {
  at: number;
  headers: http.IncomingHttpHeaders;
  /** The raw body, exactly as it arrived (what the signatures cover). */
  raw: string;
}

export type Behaviour = { status: number } | { delayMs: number; status: number } | { redirectTo: string };

/**
 * A webhook receiver on a real socket that a test scripts: each request gets
 * the next behaviour in line (then 200), and is recorded as it arrived.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly script: Behaviour[] = [];
  private server: http.Server | undefined;
  url = '';

  /** The next requests get these answers, in order. */
  answer(...behaviours: Behaviour[]): this {
    this.script.push(...behaviours);
    return this;
  }

  async start(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ at: Date.now(), headers: request.headers, raw: Buffer.concat(chunks).toString('utf8') });
        const behaviour = this.script.shift() ?? { status: 200 };
        if ('redirectTo' in behaviour) {
          response.writeHead(307, { Location: behaviour.redirectTo }).end();
        } else if ('delayMs' in behaviour) {
          setTimeout(() => response.writeHead(behaviour.status).end('late'), behaviour.delayMs).unref();
        } else {
          response.writeHead(behaviour.status).end(behaviour.status < 300 ? 'ok' : 'not now');
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `count` requests arrived (or fails after the timeout). */
  waitFor(count: number, timeoutMs = 30_000): Promise<Received[]> {
    return until(
      `${count} webhook requests`,
      () => Promise.resolve(this.received),
      (received) => received.length >= count,
      timeoutMs,
      50,
    );
  }
}

/** Receivers started on demand by a test file, all stopped after it. */
export function receiversOfThisFile(): () => Promise<WebhookReceiver> {
  const started: WebhookReceiver[] = [];
  afterAll(async () => {
    for (const receiver of started) await receiver.stop();
  });
  return async () => {
    const receiver = new WebhookReceiver();
    await receiver.start();
    started.push(receiver);
    return receiver;
  };
}

/** Registers a webhook for `events` through the API, as a client does; its id and signing secret. */
export async function registerWebhook(
  key: string,
  url: string,
  events: string[] = ['*'],
): Promise<{ id: string; secret: string }> {
  const response = await callAs(key, '/v1/webhooks', { method: 'POST', body: { url, events } });
  expect(response.status).toBe(201);
  return response.body as { id: string; secret: string };
}
