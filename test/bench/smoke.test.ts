import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Every benchmark, run at a tiny size on a stack of its own, must finish and
 * print each of its figures: a benchmark that no longer runs (a floor whose
 * stub drifted from the workflow it stands in for, a renamed route) fails
 * here rather than on the day someone measures. Only that it completes and
 * what it prints are checked, never a speed: speeds belong to `npm run bench`.
 */

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
/**
 * A stack start, tiny parts, the second stack the validation part starts, and the API and worker started
 * twice more by the processes part, on a busy two-core machine (7 minutes measured under a load of 14); then
 * `npm run bench` starts the production shape too (PostgreSQL, the Temporal server, two of each process).
 */
const BENCH_TIMEOUT_MS = 15 * 60_000;

async function bench(script: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    timeout: BENCH_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** A figure: a number with its unit, e.g. `12.3/s` or `p99 4.0 ms`. */
const FIGURE = String.raw`[0-9]+(?:\.[0-9]+)?\s*(?:/s|ms|s\b|%)`;
const printed = (label: string) => new RegExp(`${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*${FIGURE}`);

describe('benchmarks at a tiny size', () => {
  it(
    'npm run bench: every part completes and prints its figures',
    async () => {
      const out = await bench('documents.ts', {
        BENCH_REQUESTS: '6',
        BENCH_CONCURRENCY: '2',
        BENCH_STORED: '1100',
        BENCH_VOLUME: '4',
        BENCH_SECONDS: '1',
        BENCH_SAMPLES: '20',
      });
      for (const label of [
        'conversion of a 10-line invoice',
        'POST /v1/documents, concurrency 2',
        'CPU per accepted document',
        "the floor's engines and client",
        "the API's own CPU per accepted document",
        'POST /v1/documents at half that rate',
        '6 documents: one batch request',
        'CPU per no-op send workflow (the floor)',
        'POST → delivered, 6 documents',
        'CPU per delivered document',
        'official validation of a 10-line invoice',
        'POST → delivered with official validation',
        'rendering a 10-line invoice as PDF',
        'rendering a 10-line invoice as HTML',
        'first page: p99',
        'GET /v1/account: p99',
        '4 documents accepted and delivered',
        'with 1 API and 1 worker process: POST /v1/documents',
        'with 2 API and 2 worker processes: POST → delivered',
        '2 processes of each vs 1: accept',
      ]) {
        expect(out).toMatch(printed(label));
      }
      // Accept, deliver and processes again on the production shape, after the development shape's figures.
      const [development, production] = out.split('== the production shape');
      expect(development).toContain('== the development shape');
      for (const label of [
        'POST /v1/documents, concurrency 2',
        'CPU per no-op send workflow (the floor)',
        'CPU per delivered document',
        '2 processes of each vs 1: accept',
      ]) {
        expect(production).toMatch(printed(label));
      }
      expect(production).toMatch(/CPU per delivered document: .*postgres [\d.]+ ms/);
      expect(production).toMatch(
        /PostgreSQL's CPU per delivered document by the role it serves: .*temporal [\d.]+ ms.*ferretdb [\d.]+ ms|PostgreSQL's CPU per delivered document by the role it serves: .*ferretdb [\d.]+ ms.*temporal [\d.]+ ms/,
      );
      expect(production).not.toMatch(printed('rendering a 10-line invoice as PDF'));
    },
    BENCH_TIMEOUT_MS + 30_000,
  );

  it(
    'npm run bench:webhooks completes and prints every figure',
    async () => {
      const out = await bench('webhooks.ts', { BENCH_EVENTS: '4' });
      for (const label of [
        'lag event → first success p50',
        "CPU per delivery, the documents' own work included",
        'test events to 1 webhook, nothing else running',
        "floor, the service's shape with steps that do nothing",
        'the replaced shape, one workflow per delivery',
      ]) {
        expect(out).toMatch(printed(label));
      }
    },
    BENCH_TIMEOUT_MS + 30_000,
  );

  it(
    'npm run bench:as4 completes and prints every figure',
    async () => {
      const out = await bench('as4.ts', {
        BENCH_REQUESTS: '3',
        BENCH_CONCURRENCY: '2',
        BENCH_WARM_UP: '3',
        BENCH_RECEIVE_WARM_UP: '3',
      });
      for (const label of [
        'receiver lookup',
        'live send (kept lookup, AS4 send with receipt), one at a time',
        'live sends (kept lookup, AS4 sends with receipts), concurrency 2',
        'CPU per live send',
        'CPU per received message',
        'CPU per received message in our own processes',
        'AS4 receive into the inbox',
        // Each beside the JDK's cryptography alone: the ratio is printed after the figure.
        'our access point per AS4 message, sending',
        'our access point per AS4 message, receiving with its receipt',
      ]) {
        expect(out).toMatch(printed(label));
      }
    },
    BENCH_TIMEOUT_MS + 30_000,
  );

  it(
    'npm run bench:bounds completes and prints every figure',
    async () => {
      const out = await bench('bounded-work.ts', { BENCH_REQUESTS: '2', BENCH_ATTACKERS: '1' });
      for (const label of [
        'POST → delivered during deeply nested public validations',
        'POST → delivered during validations of invoices just under the element bound',
        'while another tenant receives',
        'GET /v1/account while 3 clients validate',
      ]) {
        expect(out).toMatch(printed(label));
      }
    },
    BENCH_TIMEOUT_MS + 30_000,
  );

  it(
    "npm run bench:handlers completes and prints both handlers' figures",
    async () => {
      const out = await bench('storage-handlers.ts', { BENCH_HANDLER_DOCS: '50', BENCH_HANDLER_SECONDS: '1' });
      expect(out).toMatch(/bulk insert\s+[0-9]+ docs\/s\s+[0-9]+ docs\/s/);
      expect(out).toMatch(printed('updateOne by _id, concurrency 16'));
    },
    BENCH_TIMEOUT_MS + 30_000,
  );
});
