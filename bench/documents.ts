import { rm } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

import { convertDocument, type SendingCompany } from '../domain/documents/convert';
import { documentInputSchema } from '../domain/documents/input';
import { startStack } from '../stack/embedded-stack';
import { isolatedStackConfig } from '../stack/isolated-config';

/**
 * `npm run bench`: on a fresh embedded stack of its own, measures
 *   1. UBL conversions per second in-process (10-line invoice, parse + checks + totals + XML),
 *   2. accepted documents per second and p50/p99 latency of POST /v1/documents under concurrency,
 *   3. documents per second from POST to `delivered` (email through the local SMTP sink).
 * Sizes: BENCH_REQUESTS (default 400), BENCH_CONCURRENCY (default 16), BENCH_SECONDS (default 3).
 */

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

const company: SendingCompany = {
  name: 'Bench Seller SRL',
  country: 'BE',
  tax_id: 'BE0123456749',
  iban: 'BE68539007547034',
  peppol_id: '0208:0123456749',
  email: 'bench@seller.example',
  address: { street: 'Rue de la Loi 1', city: 'Brussels', postal_code: '1000' },
};

const invoice = (companyId: string, number: string) => ({
  company_id: companyId,
  number,
  issue_date: '2026-11-20',
  due_date: '2026-12-20',
  buyer_reference: 'BENCH',
  to: { name: 'Bench Buyer NV', tax_id: 'BE0987654394', peppol_id: '0208:0987654394', email: 'buyer@bench.example', address: { city: 'Antwerpen', country: 'BE' } },
  lines: Array.from({ length: 10 }, (_, i) => ({
    description: `Item ${i + 1}`,
    quantity: (i % 4) + 1.5,
    unit: 'C62',
    unit_price: `${(i + 1) * 7}.35`,
    tax_rate: i % 3 === 0 ? 6 : 21,
  })),
});

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function conversionsPerSecond(): number {
  const body = invoice('com_000000000000000000000000', 'BENCH-1');
  let count = 0;
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    const result = convertDocument(documentInputSchema.parse(body), company);
    if (!result.ok) throw new Error(JSON.stringify(result.violations));
    count += 1;
  }
  return count / SECONDS;
}

async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function main(): Promise<void> {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(`1. in-process conversion of a 10-line invoice: ${conversionsPerSecond().toFixed(0)} per second`);

  const config = await isolatedStackConfig({ RATE_LIMIT_SANDBOX: '1000000', LOG_LEVEL: 'error' });
  const stack = await startStack({ config });
  // Interrupted (Ctrl-C, a time limit): stop the stack's processes before leaving.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stack
        .stop()
        .then(() => rm(config.DATA_DIR, { recursive: true, force: true }))
        .finally(() => process.exit(130));
    });
  }
  try {
    const api = stack.urls.api!;
    const signup = await json(`${api}/v1/signup`, { method: 'POST', body: JSON.stringify({ email: 'bench@example.com' }) });
    const auth = { Authorization: `Bearer ${String(signup.body.api_key)}` };
    const created = await json(`${api}/v1/companies`, { method: 'POST', headers: auth, body: JSON.stringify(company) });
    const companyId = String(created.body.id);

    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          const number = `BENCH-${(next += 1)}`;
          const t0 = performance.now();
          const response = await json(`${api}/v1/documents`, { method: 'POST', headers: auth, body: JSON.stringify(invoice(companyId, number)) });
          latencies.push(performance.now() - t0);
          if (response.status !== 202) throw new Error(`POST answered ${response.status}: ${JSON.stringify(response.body)}`);
        }
      }),
    );
    const acceptSeconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    say(
      `2. POST /v1/documents, ${REQUESTS} requests at concurrency ${CONCURRENCY}: ${(REQUESTS / acceptSeconds).toFixed(1)} accepted per second, ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );

    const giveUpAt = performance.now() + 10 * 60_000;
    for (;;) {
      if (performance.now() > giveUpAt) throw new Error('documents still not delivered after 10 minutes');
      const page = await json(`${api}/v1/documents?company_id=${companyId}&status=delivered&limit=100`, { headers: auth });
      const queued = await json(`${api}/v1/documents?company_id=${companyId}&status=queued&limit=1`, { headers: auth });
      const sending = await json(`${api}/v1/documents?company_id=${companyId}&status=sending&limit=1`, { headers: auth });
      const pending = (queued.body.data as unknown[]).length + (sending.body.data as unknown[]).length;
      if (pending === 0 && (page.body.data as unknown[]).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const endToEndSeconds = (performance.now() - started) / 1000;
    say(`3. POST to delivered (email), ${REQUESTS} documents: ${(REQUESTS / endToEndSeconds).toFixed(1)} per second (${endToEndSeconds.toFixed(1)} s in all)`);
  } catch (err) {
    say(`the API's last output:\n${stack.process('api')?.tail() ?? ''}`);
    throw err;
  } finally {
    await stack.stop();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
