import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

import { benchStack, json, runBenchmark, say, signUpWithCompany } from './harness';
import { closedLoop, ms, summarize } from './support';

/**
 * `npm run bench:webhooks`: BENCH_EVENTS (1,000) document events fanned out
 * to two webhooks on an embedded stack of its own, one receiver answering 500
 * to half of the first attempts (and 200 to every retry: it recovers within
 * the 5 attempts). Reports deliveries per second, the lag from an event to
 * its first successful delivery (p50/p99), and how many delivery ids never
 * succeeded (must be 0).
 */

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);

interface Receiver {
  url: string;
  /** Delivery id → when it was first answered 2xx (ms since epoch) and its event's time. */
  succeeded: Map<string, { at: number; eventAt: number }>;
  requests: number;
  close(): Promise<void>;
}

async function receiver(flaky: boolean): Promise<Receiver> {
  const seen = new Set<string>();
  const succeeded = new Map<string, { at: number; eventAt: number }>();
  let requests = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests += 1;
      const id = String(request.headers['x-peppol-delivery-id']);
      const firstAttempt = !seen.has(id);
      seen.add(id);
      if (flaky && firstAttempt && Math.random() < 0.5) {
        response.writeHead(500).end();
        return;
      }
      if (!succeeded.has(id)) {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string };
        succeeded.set(id, { at: Date.now(), eventAt: Date.parse(event.created_at) });
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    succeeded,
    get requests() {
      return requests;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const { stack, stop } = await benchStack({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_INITIAL_INTERVAL: '1s' });
  const [steady, flaky] = [await receiver(false), await receiver(true)];
  try {
    const api = stack.urls.api!;
    const { auth, companyId } = await signUpWithCompany(api, 'hooks', {
      name: 'Bench Seller SRL',
      country: 'BE',
      tax_id: 'BE0123456749',
      peppol_id: '0208:0123456749',
      email: 'bench@seller.example',
    });
    for (const target of [steady, flaky]) {
      const created = await json(`${api}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: target.url, events: ['*'] }) });
      if (created.status !== 201) throw new Error(`webhook: ${JSON.stringify(created.body)}`);
    }
    // Three deliverable events a document: queued, sending, delivered.
    const documents = Math.ceil(EVENTS / 3);
    const expected = documents * 3;
    const started = performance.now();
    let n = 0;
    await closedLoop(documents, 8, async () => {
      const response = await json(`${api}/v1/documents`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          company_id: companyId,
          number: `HOOK-${(n += 1)}`,
          issue_date: '2026-11-20',
          buyer_reference: 'BENCH',
          to: { name: 'Buyer NV', tax_id: 'BE0987654394', peppol_id: '0208:0987654394', email: 'bench@seller.example', address: { country: 'BE' } },
          lines: [{ description: 'Item', quantity: 1, unit_price: '10.00', tax_rate: 21 }],
        }),
      });
      if (response.status !== 202) throw new Error(`POST answered ${response.status}`);
    });
    const giveUpAt = performance.now() + 20 * 60_000;
    while (steady.succeeded.size < expected || flaky.succeeded.size < expected) {
      if (performance.now() > giveUpAt) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - started) / 1000;
    const lags = [...steady.succeeded.values(), ...flaky.succeeded.values()].map(({ at, eventAt }) => at - eventAt);
    const lag = summarize(lags, seconds);
    const never = 2 * expected - steady.succeeded.size - flaky.succeeded.size;
    say(
      `${expected} events to 2 webhooks (one answering 500 to half of first attempts): ${((2 * expected) / seconds).toFixed(1)} deliveries/s ` +
        `(${steady.requests + flaky.requests} requests in ${seconds.toFixed(0)} s); lag event → first success p50 ${ms(lag.p50)}, p99 ${ms(lag.p99)}; ` +
        `${never} delivery ids never succeeded ${never === 0 ? 'MET' : 'NOT MET'}`,
    );
  } finally {
    await steady.close();
    await flaky.close();
    await stop();
  }
}

runBenchmark(main);
