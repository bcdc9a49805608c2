import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import { freePort } from '../../stack/ports';
import { scrape, valueOf } from '../support/prometheus';

/**
 * Metrics of several copies of one entry (API_PROCESSES, WORKER_PROCESSES) answer one scrape of the primary:
 * what each copy counted is summed, what each read of the shared database once, and Node's metrics of every
 * copy are there. Run on a stand-in entry (test/support/metrics-copies-fixture.ts).
 */

const FIXTURE = path.join(__dirname, '..', 'support', 'metrics-copies-fixture.ts');

async function scrapeWhen(
  url: string,
  ready: (families: Awaited<ReturnType<typeof scrape>>) => boolean,
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const families = await scrape(url).catch(() => []);
    if (ready(families)) return families;
    if (Date.now() > deadline) throw new Error(`${url}: not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('metrics of process copies', () => {
  let primary: ChildProcess | undefined;
  afterEach(async () => {
    if (primary?.exitCode !== null) return;
    const exited = new Promise((resolve) => primary!.once('exit', resolve));
    primary.kill('SIGTERM');
    await exited;
  });

  it.each([
    ['two copies: the primary sums what the copies counted and keeps one reading of the database', 2],
    ['one process: it serves its own', 1],
  ])(
    '%s',
    async (_title, copies) => {
      const port = await freePort();
      primary = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
        env: { ...process.env, COPIES: String(copies), PORT: String(port) },
        stdio: 'inherit',
      });
      const url = `http://127.0.0.1:${port}/metrics`;
      const families = await scrapeWhen(
        url,
        (now) => valueOf(now, 'einvoice_documents_total', { direction: 'sent', status: 'queued' }) === copies,
      );
      expect(valueOf(families, 'einvoice_documents_in_progress', { status: 'queued' })).toBe(7);
      expect(valueOf(families, 'einvoice_stuck_work', { kind: 'document' })).toBe(2);
      expect(families.some((family) => family.name === 'einvoice_process_resident_memory_bytes')).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    },
    90_000,
  );
});
