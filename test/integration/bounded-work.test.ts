import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import type { Connection as DbConnection } from 'mongoose';

import { convertForCompany, readDocumentBody } from '../../api/public/document-input';
import { cpuPool, type CpuPool } from '../../api/public/cpu-pool';
import { DOCUMENT_LIMITS } from '../../domain/documents/input';
import { routingOf } from '../../domain/peppol/envelope';
import { checkXmlBounds, UBL_BOUNDS } from '../../domain/xml-bounds';
import { connectDatabase } from '../../platform/database';
import {
  officialValidator,
  ValidationTimeLimitError,
  ValidatorUnavailableError,
} from '../../platform/official-validator';
import { invoiceNearTheElementBound, largestInvoice, validFixtures } from '../fixtures/documents';
import { callAs, fakeClientIp, withStore } from '../support/accounts';
import { liveSender, LIVE, sendingAccount, waitForStatus } from '../support/documents';
import { leastBusyRatio } from '../support/event-loop';
import { callApi } from '../support/http';
import { inProcessApp, listening } from '../support/in-process-api';
import { ops } from '../support/ops';
import { ublTo, uniqueBelgianPeppolId } from '../support/receiving';
import { until } from '../support/until';
import { validatorLanes, validatorWarm, type LaneCounts } from '../support/peppol-validator';
import { freePort } from '../../stack/ports';
import { sharedStack } from '../support/test-stack';
import { loadStackConfig } from '../../stack/config';
import { PEPPOL_VALIDATOR, toolBinaryPath } from '../../stack/tools';

/**
 * Work per request is bounded (docs/security.md): UBL from outside is measured
 * before the validator sees it, the validator keeps capacity for sends and
 * stops what runs too long or is abandoned, and documents are bounded and
 * converted off the event loop.
 */

const UBL_HEAD =
  '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">';
/** Notes nested `depth` deep: tiny, and on the official rules' schematron its cost grows with the square of the depth. */
const nested = (depth: number) => `${UBL_HEAD}${'<cbc:Note>'.repeat(depth)}x${'</cbc:Note>'.repeat(depth)}</Invoice>`;
const flat = (count: number) => `${UBL_HEAD}${'<cbc:Note>x</cbc:Note>'.repeat(count)}</Invoice>`;

const validatePublicly = (body: string) =>
  callApi('/v1/ubl/validate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/xml', 'X-Forwarded-For': fakeClientIp() },
    body,
  });

describe('UBL from outside is measured before it is validated', () => {
  it('when a UBL document nests 10,000 elements deep, then 422 xml_too_complex names the depth bound and where, without validating', async () => {
    const response = await validatePublicly(nested(10_000));
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'xml_too_complex',
      details: { limit: 'depth', maximum: UBL_BOUNDS.maxDepth, line: 1 },
    });
    expect(response.body.error.message).toContain(`deeper than ${UBL_BOUNDS.maxDepth} levels`);
  });

  it('when a burst of deeply nested documents arrives, then a sandbox document sent meanwhile is delivered as usual', async () => {
    const sender = await sendingAccount();
    const burst = Array.from({ length: 6 }, () => validatePublicly(nested(10_000)));
    const posted = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId },
    });
    expect(posted.status).toBe(202);
    // Before the bounds, two such documents held both of the validator's permits for minutes.
    const delivered = await waitForStatus(
      sender.key,
      posted.body.id,
      sender.companyId,
      ['delivered', 'failed'],
      20_000,
    );
    expect(delivered.status).toBe('delivered');
    for (const refused of await Promise.all(burst)) expect(refused.body.error.code).toBe('xml_too_complex');
  });
});

describe('the validator keeps capacity for sends and stops what runs too long', () => {
  const validator = () => officialValidator(sharedStack().validatorUrl);
  beforeAll(validatorWarm, 300_000);

  it('when an interactive validation passes its time limit, then its worker is killed, and the next one gets a permit and a worker at once', async () => {
    const before = await validatorLanes();
    const started = Date.now();
    await expect(validator().validate(nested(20_000), { lane: 'interactive', limitMs: 1_000 })).rejects.toBeInstanceOf(
      ValidationTimeLimitError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // Counted until the killed worker's process is gone; the permit comes back only then.
    const after = await until(
      'the stopped run to end',
      validatorLanes,
      (lanes) => lanes.interactive.running === 0,
      10_000,
    );
    expect(after.interactive.stopped).toBe(before.interactive.stopped + 1);
    // One interactive permit on two cores: had the stopped run kept it, this would wait and be refused as busy.
    const report = await validator().validate(flat(3), { lane: 'interactive', limitMs: 5_000 });
    expect(report.document_type).toBe('invoice');
  });

  it('when the caller of a validation goes away, then the validation is cancelled and its permit comes back', async () => {
    const gone = new AbortController();
    const abandoned = validator().validate(nested(20_000), {
      lane: 'interactive',
      limitMs: 60_000,
      signal: gone.signal,
    });
    setTimeout(() => gone.abort(), 300);
    await expect(abandoned).rejects.toBeInstanceOf(ValidatorUnavailableError);
    const report = await validator().validate(flat(3), { lane: 'interactive', limitMs: 5_000 });
    expect(report.document_type).toBe('invoice');
  });

  it('when interactive validations hold every permit of their lane, then a send validation still runs at once', async () => {
    // Runs for seconds (its cost grows with the square of its depth), until done or stopped: either is fine here.
    const hog = validator()
      .validate(nested(40_000), { lane: 'interactive', limitMs: 3_000 })
      .catch((err: unknown) => err);
    await until(
      'the interactive lane full',
      validatorLanes,
      (lanes) => lanes.interactive.running >= lanes.interactive.permits,
      10_000,
      50,
    );
    const report = await validator().validate(flat(3), { lane: 'send', limitMs: 5_000 });
    expect(report.document_type).toBe('invoice');
    // The same in the interactive lane waits for the hog and gives up.
    await expect(validator().validate(flat(3), { lane: 'interactive', limitMs: 1_000 })).rejects.toBeInstanceOf(
      ValidatorUnavailableError,
    );
    await hog;
  });

  it('when the public validator holds every permit of its lane, then an authenticated validation still runs at once', async () => {
    const hog = validator()
      .validate(nested(40_000), { lane: 'public', limitMs: 3_000 })
      .catch((err: unknown) => err);
    await until(
      'the public lane full',
      validatorLanes,
      (lanes) => lanes.public.running >= lanes.public.permits,
      10_000,
      50,
    );
    const report = await validator().validate(flat(3), { lane: 'interactive', limitMs: 5_000 });
    expect(report.document_type).toBe('invoice');
    await hog;
  });
});

describe('the validator\u2019s workers, on the newest Java here', () => {
  /** The newest Java on this machine (Temurin's 21 or later beside the default 17, where there is one). */
  const newestJava = readdirSync('/usr/lib/jvm', { withFileTypes: true })
    .map((entry) => path.join('/usr/lib/jvm', entry.name, 'bin', 'java'))
    .filter((java) => existsSync(java))
    .map((java) => ({
      java,
      version: Number(/version "(\d+)/.exec(spawnSync(java, ['-version'], { encoding: 'utf8' }).stderr)?.[1] ?? 0),
    }))
    .sort((a, b) => b.version - a.version)[0]!;

  interface Health {
    lanes: Record<string, LaneCounts>;
    pools: Record<
      'validate' | 'render',
      { workers: number; idle: number; started: number; retired: number; pids: number[] }
    >;
  }
  let server: ChildProcess;
  let url: string;
  const health = async () => (await (await fetch(`${url}/health`)).json()) as Health;
  const validator = () => officialValidator(url);
  /** Seconds of validation on any Java (the nested notes the shared stack's tests use are not XML to a Java from 24 on). */
  const slow = invoiceNearTheElementBound();
  /** A worker warm and idle: a fresh one compiles its rules first, which on a busy machine can take longer than a validation's limit. */
  const warmWorker = () => until('a warm worker', health, ({ pools }) => pools.validate.idle === 1, 240_000, 250);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const jar = toolBinaryPath(loadStackConfig().TOOLS_DIR, PEPPOL_VALIDATOR);
    // One lane of one permit, so one worker: each test knows which process ran its job.
    const lanes = 'send=1,interactive=0,public=0,receive=0,render=0,view=0';
    server = spawn(
      newestJava.java,
      ['-Xmx128m', '-jar', jar, '--port', String(port), '--lane-permits', lanes, '--recycle-after', '3'],
      { stdio: 'ignore' },
    );
    await until(
      'the validator to listen',
      () =>
        fetch(`${url}/health`).then(
          (response) => response.ok,
          () => false,
        ),
      Boolean,
      240_000,
      500,
    );
  }, 300_000);
  afterAll(async () => {
    const { pools } = await health();
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    // Its workers end with it.
    await until(
      'its workers to end',
      () => Promise.resolve(pools.validate.pids.filter(alive)),
      (left) => left.length === 0,
      30_000,
    );
  });

  it(`runs on Java ${newestJava.version}: one worker, warm, in the one lane with a permit`, async () => {
    const { pools, lanes } = await health();
    expect(pools.validate.pids).toHaveLength(1);
    expect(pools.render.workers).toBe(0);
    expect(lanes.send!.permits).toBe(1);
    expect((await validator().validate(flat(3))).document_type).toBe('invoice');
  });

  it('when a validation passes its time limit, then its worker process is killed and gone before the permit comes back, and the next validation runs in a fresh worker', async () => {
    const before = await warmWorker();
    const [worker] = before.pools.validate.pids;
    await expect(validator().validate(slow, { limitMs: 1_000 })).rejects.toBeInstanceOf(ValidationTimeLimitError);
    const after = await health();
    expect(alive(worker!)).toBe(false);
    expect(after.lanes.send).toMatchObject({ running: 0, stopped: before.lanes.send!.stopped + 1, lost: 0 });
    // The one permit is back (a kept one would refuse this as busy), for the fresh worker.
    await warmWorker();
    expect((await validator().validate(flat(3))).document_type).toBe('invoice');
    expect((await health()).pools.validate.pids).not.toContain(worker);
  }, 300_000);

  it('when the caller of a validation goes away, then its worker process is killed and the permit comes back', async () => {
    const before = await warmWorker();
    const [worker] = before.pools.validate.pids;
    const gone = new AbortController();
    const abandoned = validator().validate(slow, { signal: gone.signal });
    await until('the validation to run', health, ({ lanes }) => lanes.send!.running === 1, 10_000, 50);
    gone.abort();
    await expect(abandoned).rejects.toBeInstanceOf(ValidatorUnavailableError);
    // The stop is counted a moment before the permit is released: both are waited for, the permit's return being what is asserted.
    const after = await until(
      'the stop to land and the permit to come back',
      health,
      ({ lanes }) => lanes.send!.stopped === before.lanes.send!.stopped + 1 && lanes.send!.running === 0,
      10_000,
      50,
    );
    expect(after.lanes.send).toMatchObject({ running: 0, stopped: before.lanes.send!.stopped + 1 });
    expect(alive(worker!)).toBe(false);
    await warmWorker();
    expect((await validator().validate(flat(3))).document_type).toBe('invoice');
  }, 300_000);

  it('when a worker dies under a validation, then the validation is answered as unavailable, counted lost, and the permit comes back', async () => {
    const before = await warmWorker();
    const [worker] = before.pools.validate.pids;
    const running = validator().validate(slow);
    await until('the validation to run', health, ({ lanes }) => lanes.send!.running === 1, 10_000, 50);
    process.kill(worker!, 'SIGKILL');
    await expect(running).rejects.toBeInstanceOf(ValidatorUnavailableError);
    expect((await health()).lanes.send).toMatchObject({
      running: 0,
      stopped: before.lanes.send!.stopped,
      lost: before.lanes.send!.lost + 1,
    });
    await warmWorker();
    expect((await validator().validate(flat(3))).document_type).toBe('invoice');
  }, 300_000);

  it('when a worker has run its jobs (3 here), then it is retired and a fresh one, warmed meanwhile, takes the next', async () => {
    const before = await health();
    const workers = new Set<number>();
    for (let job = 0; job < 4; job += 1) {
      await warmWorker();
      expect((await validator().validate(flat(3))).document_type).toBe('invoice');
      (await health()).pools.validate.pids.forEach((pid) => workers.add(pid));
    }
    const after = await health();
    expect(after.pools.validate.retired).toBeGreaterThan(before.pools.validate.retired);
    expect(workers.size).toBeGreaterThan(1);
    expect(after.lanes.send).toMatchObject({
      running: 0,
      stopped: before.lanes.send!.stopped,
      lost: before.lanes.send!.lost,
    });
    expect(after.pools.validate.pids).toHaveLength(1);
  }, 600_000);
});

describe('documents are bounded', () => {
  const line = (allowances: number) => ({
    description: 'Consulting',
    quantity: 1,
    unit_price: '10.00',
    tax_rate: 21,
    allowances: Array.from({ length: allowances }, () => ({ amount: '0.01', reason: 'Discount' })),
  });

  it('when a line has more allowances than the limit, then 422 document_invalid naming the limit and the line', async () => {
    const sender = await sendingAccount();
    const body = {
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      lines: [line(DOCUMENT_LIMITS.perLineAllowancesOrCharges + 1)],
    };
    const response = await callAs(sender.key, '/v1/documents', { method: 'POST', body });
    expect(response.status).toBe(422);
    expect(response.body.error.details.violations[0]).toMatchObject({
      path: 'lines[0].allowances',
      message: expect.stringContaining(`at most ${DOCUMENT_LIMITS.perLineAllowancesOrCharges} allowances per line`),
    });
  });

  it('when the lines hold more allowances and charges together than the limit, then 422 naming that limit', async () => {
    const sender = await sendingAccount();
    const lines = Array.from(
      { length: DOCUMENT_LIMITS.lineAllowancesAndCharges / DOCUMENT_LIMITS.perLineAllowancesOrCharges + 1 },
      () => line(DOCUMENT_LIMITS.perLineAllowancesOrCharges),
    );
    const response = await callAs(sender.key, '/v1/documents/validate', {
      method: 'POST',
      body: { ...validFixtures[0]!.body, company_id: sender.companyId, lines },
    });
    expect(response.status).toBe(200);
    expect(response.body.valid).toBe(false);
    expect(response.body.violations).toEqual([
      expect.objectContaining({
        path: 'lines',
        message: expect.stringContaining('2,000 line allowances and charges together'),
      }),
    ]);
  });
});

describe('large documents, on an API with a 24 MiB body limit', () => {
  let baseUrl: string;
  let cpu: CpuPool;
  let db: DbConnection;
  let close: () => Promise<void>;

  beforeAll(async () => {
    db = await connectDatabase(sharedStack().mongodbUri);
    cpu = cpuPool(1);
    ({ url: baseUrl, close } = await listening(
      inProcessApp(db, { MAX_BODY_BYTES: String(24 * 1024 * 1024) }, { cpu }),
    ));
  });
  afterAll(async () => {
    await close();
    await cpu.close();
    await db.close();
  });

  /** A PDF of `bytes` in base64, as an attachment. */
  const attachment = (bytes: number) => ({
    filename: 'scan.pdf',
    mime_type: 'application/pdf',
    content: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(bytes, 0x20), Buffer.from('\n%%EOF\n')]).toString(
      'base64',
    ),
  });

  it('when a UBL document holds more elements than the bound, then 422 xml_too_complex names the element bound', async () => {
    const body = `${UBL_HEAD}${'<a/>'.repeat(UBL_BOUNDS.maxElements)}</Invoice>`;
    const response = await callApi('/v1/ubl/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', 'X-Forwarded-For': fakeClientIp() },
      body,
      baseUrl,
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'xml_too_complex',
      details: { limit: 'elements', maximum: UBL_BOUNDS.maxElements },
    });
  });

  it('when a live document would not fit one stored row, then 413 document_too_large before anything is charged or stored', async () => {
    const sender = await liveSender();
    await ops('credits', 'add', sender.workspaceId, '10.00');
    const balance = async () =>
      (await callAs(sender.key, `/v1/workspaces/${sender.workspaceId}`, { baseUrl })).body.credit_balance;
    const before = await balance();
    const body = {
      ...validFixtures[0]!.body,
      company_id: sender.companyId,
      attachments: [attachment(6 * 1024 * 1024), attachment(6 * 1024 * 1024)],
    };
    const response = await callAs(sender.liveKey, '/v1/documents', { method: 'POST', body, host: LIVE, baseUrl });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({
      code: 'document_too_large',
      details: { limit_bytes: 15 * 1024 * 1024 },
    });
    expect(await balance()).toBe(before);
    expect(
      (await callAs(sender.liveKey, `/v1/documents?company_id=${sender.companyId}`, { host: LIVE, baseUrl })).body.data,
    ).toEqual([]);
  });

  it('when a 9.9 MB document is posted to the sandbox inbound endpoint, then it is measured and read off the event loop', async () => {
    const account = await sendingAccount();
    const fixture = ublTo('standard rate S, one line', uniqueBelgianPeppolId());
    const ubl = fixture.replace('</cbc:Note>', `${'0123456789 '.repeat(900_000)}</cbc:Note>`);
    expect(Buffer.byteLength(ubl)).toBeGreaterThan(9.8e6);
    expect(checkXmlBounds(ubl, UBL_BOUNDS).ok).toBe(true);
    const post = () =>
      callApi('/v1/sandbox/inbound', {
        method: 'POST',
        headers: { Authorization: `Bearer ${account.key}`, 'Content-Type': 'application/xml' },
        body: ubl,
        baseUrl,
      });
    // Once unmeasured: what a process does once (the thread's first module loads) is not per-document work.
    expect((await post()).status).toBe(422);
    // Against what reading it costs on this thread (the yardstick), measured beside it under the same load.
    const ratio = await leastBusyRatio(
      async () => {
        // Read: it was addressed (to a participant none of the workspace's companies has).
        expect((await post()).body.error.code).toBe('recipient_not_found');
      },
      () => routingOf(ubl),
      0.75,
    );
    expect(ratio).toBeLessThan(0.75);
  });

  it('when large documents are converted, then the work is done off the event loop', async () => {
    const sender = await sendingAccount();
    const text = JSON.stringify(largestInvoice(sender.companyId));
    const posted = 2;
    // What reading and converting the same documents costs when done on this thread: the yardstick, measured beside each try.
    const company = (await withStore((store) => store.companies.findById(sender.companyId).lean()))!;
    const conversionsOnThisThread = () => {
      for (let i = 0; i < posted; i += 1) {
        const reading = readDocumentBody({ bytes: Buffer.from(text), batch: false });
        const entry = reading.ok ? reading.entries[0] : undefined;
        if (!entry?.object || !('shape' in entry) || !entry.shape.ok) throw new Error('the large document is refused');
        expect(convertForCompany({ input: entry.shape.input, company }).ok).toBe(true);
      }
    };

    const headers = { Authorization: `Bearer ${sender.key}`, 'Content-Type': 'application/json' };
    // One document first, unmeasured: what is done once per process (the conversion thread's first module loads,
    // this route's first run) is not per-document work on the event loop.
    expect((await callApi('/v1/documents', { method: 'POST', headers, body: text, baseUrl })).status).toBe(202);
    const ratio = await leastBusyRatio(
      async () => {
        const answers = await Promise.all(
          Array.from({ length: posted }, () =>
            callApi('/v1/documents', { method: 'POST', headers, body: text, baseUrl }),
          ),
        );
        for (const answer of answers) expect(answer.status).toBe(202);
      },
      conversionsOnThisThread,
      0.75,
    );
    // The conversions on the event loop would keep it busy at least as long as the yardstick; off it, the loop only passes bytes on and stores.
    expect(ratio).toBeLessThan(0.75);
  });
});
