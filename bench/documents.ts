import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import { Client, Connection, WithStartWorkflowOperation, WorkflowIdReusePolicy } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { NativeConnection } from '@temporalio/worker';
import mongoose from 'mongoose';
import { create } from 'xmlbuilder2';

import type { Activities } from '../activities';
import { convertDocument, type SendingCompany } from '../domain/documents/convert';
import { documentInputSchema } from '../domain/documents/input';
import { newSortableId } from '../domain/ids';
import { officialValidator } from '../platform/official-validator';
import type { EmbeddedStack } from '../stack/embedded-stack';
import { createStore } from '../store';
import { recordedAsAccepted, stubAcceptance } from '../test/support/stub-acceptance';
import { QueueWorkers } from '../worker/task-queues';
import { cachedWorkflowBundle } from '../worker/workflow-bundle';
import type { sendDocumentWorkflow } from '../workflows/send-document';
import { ACCEPT_UPDATE } from '../workflows/shared';
import {
  benchStack,
  cpuPerOperation,
  cpuView,
  envNumber,
  json,
  postgresCpuByRole,
  runBenchmark,
  say,
  signUpWithCompany,
  withChildren,
  withCpu,
} from './harness';
import { closedLoop, ms, openLoop, singleClient, summarize, throughput, versus, type Measurement } from './support';

/**
 * `npm run bench`: on an embedded stack of its own (or, with
 * BENCH_AGAINST=compose, on the docker-compose services), each figure next to
 * the floor of its own engines measured in the same run:
 *   conversion  UBL conversions/s in-process vs the bare xmlbuilder2 serialisation of the same UBL
 *   accept      POST /v1/documents at concurrency 16 vs one 12 KB insert + one workflow start,
 *               and p99 at half that rate (open loop)
 *   deliver     POST → delivered vs the send workflow run with no-op activities, after BENCH_WARM_DOCUMENTS
 *               (200, at most BENCH_REQUESTS) went through the pipeline, so the validator's JIT is warm as in service
 *   validation  official validations/s of a 10-line invoice, its share of one document's POST → delivered time,
 *               and POST → delivered against a second stack whose validator is a stand-in that accepts
 *               everything at once (the throughput the pipeline loses to official validation)
 *   scale       first page, cursor page, idempotent replay and GET /v1/account, p99 from one client,
 *               at 1,000 and at 100,000 stored documents
 *   volume      BENCH_VOLUME documents accepted and delivered: none lost, none sent twice
 *   processes   accept and POST → delivered with each of BENCH_PROCESSES API and worker processes (1,2; the API and
 *               worker restarted with that many), per core of this machine, with each component's CPU per document
 *
 * Each part runs on the development shape (the Temporal CLI's dev server, FerretDB on SQLite); accept, deliver
 * and processes run again on the production shape (STACK_SHAPE=production: the Temporal server and FerretDB on
 * PostgreSQL, two API and two worker processes behind the front proxy), each with its floors measured there.
 * BENCH_SHAPES (development,production) chooses.
 * Sizes: BENCH_PARTS (all), BENCH_REQUESTS (800), BENCH_CONCURRENCY (16), BENCH_STORED (100000), BENCH_VOLUME (2000),
 * BENCH_SAMPLES (500), BENCH_SECONDS (3, per conversion figure), BENCH_PROCESSES (1,2).
 */

const REQUESTS = envNumber('BENCH_REQUESTS', 800);
const CONCURRENCY = envNumber('BENCH_CONCURRENCY', 16);
const STORED = envNumber('BENCH_STORED', 100_000);
const VOLUME = envNumber('BENCH_VOLUME', 2_000);
/** Latency samples per single-client figure (scale, validation), and warm-up calls before them. */
const SAMPLES = envNumber('BENCH_SAMPLES', 500);
const WARM_UP = Math.min(50, SAMPLES);
/** Documents through the pipeline before the deliver part measures it. */
const WARM_DOCUMENTS = Math.min(envNumber('BENCH_WARM_DOCUMENTS', 200), REQUESTS);
const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'conversion,accept,deliver,validation,rendering,scale,volume,processes').split(','),
);
const PROCESS_COUNTS = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const SHAPES = (process.env.BENCH_SHAPES ?? 'development,production').split(',');
/** The parts measured on the production shape too: what one document costs there, and what one more process adds. */
const PRODUCTION_PARTS = new Set(['accept', 'deliver', 'processes']);

const company: SendingCompany = {
  name: 'Bench Seller SRL',
  country: 'BE',
  tax_id: 'BE0123456749',
  iban: 'BE68539007547034',
  peppol_id: '0208:0123456749',
  email: 'bench@seller.example',
  address: { street: 'Rue de la Loi 1', city: 'Brussels', postal_code: '1000' },
};

const invoice = (companyId: string, number: string, email = 'buyer@bench.example') => ({
  company_id: companyId,
  number,
  issue_date: '2026-11-20',
  due_date: '2026-12-20',
  buyer_reference: 'BENCH',
  to: {
    name: 'Bench Buyer NV',
    tax_id: 'BE0987654394',
    peppol_id: '0208:0987654394',
    email,
    address: { city: 'Antwerpen', country: 'BE' },
  },
  lines: Array.from({ length: 10 }, (_, i) => ({
    description: `Item ${i + 1}`,
    quantity: (i % 4) + 1.5,
    unit: 'C62',
    unit_price: `${(i + 1) * 7}.35`,
    tax_rate: i % 3 === 0 ? 6 : 21,
  })),
});

function conversion(): void {
  const body = documentInputSchema.parse(invoice('com_000000000000000000000000', 'BENCH-1'));
  const seconds = envNumber('BENCH_SECONDS', 3);
  const run = (operation: () => void): Measurement => {
    const latencies: number[] = [];
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const t0 = performance.now();
      operation();
      latencies.push(performance.now() - t0);
    }
    return summarize(latencies, seconds);
  };
  const converted = convertDocument(body, company);
  if (!converted.ok) throw new Error(JSON.stringify(converted.violations));
  const tree = create(converted.ubl).end({ format: 'object' });
  const floor = run(() => void create(tree).end({ prettyPrint: true }));
  const measured = run(() => {
    const result = convertDocument(
      documentInputSchema.parse(invoice('com_000000000000000000000000', 'BENCH-1')),
      company,
    );
    if (!result.ok) throw new Error('refused');
  });
  say(versus('conversion of a 10-line invoice (parse, checks, totals, UBL)', measured, floor, 0.6));
}

interface Bench {
  stack: EmbeddedStack;
  api: string;
  auth: Record<string, string>;
  companyId: string;
  temporal: Client;
  db: mongoose.Connection;
}

const post = (bench: Bench, body: unknown) =>
  json(`${bench.api}/v1/documents`, { method: 'POST', headers: bench.auth, body: JSON.stringify(body) });

async function expectStatus(promise: Promise<{ status: number; body: unknown }>, status: number): Promise<void> {
  const response = await promise;
  if (response.status !== status)
    throw new Error(`answered ${response.status} instead of ${status}: ${JSON.stringify(response.body)}`);
}

/**
 * Until every document of the company is delivered (or failed); the time it took. A poll asks the
 * (company, environment, status) index for one queued and one sending row; only when both are gone does it
 * count the company's documents. Counting on every poll, as it first did, read every row on FerretDB (87 ms
 * of its CPU a count at 400 documents, measured) and took that share of the cores from the pipeline measured.
 */
async function drained(bench: Bench, expected: number, giveUpMs = 30 * 60_000): Promise<number> {
  const started = performance.now();
  const store = createStore(bench.db);
  const company = { company_id: bench.companyId, environment: 'sandbox' as const };
  const anyIn = (status: 'queued' | 'sending') =>
    store.documents
      .findOne({ ...company, status }, { _id: 1 })
      .sort({ _id: -1 })
      .lean();
  for (;;) {
    const pending = (await Promise.all([anyIn('queued'), anyIn('sending')])).some((row) => row !== null);
    if (!pending && (await store.documents.countDocuments(company)) >= expected)
      return (performance.now() - started) / 1000;
    if (performance.now() - started > giveUpMs) throw new Error('documents still pending');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function accept(bench: Bench): Promise<void> {
  // Floor: what one accepted document costs the engines at the least: a 12 KB insert and a workflow start
  // (on a task queue no worker polls, so nothing runs it).
  const floorCollection = bench.db.collection('bench_floor');
  const blob = randomBytes(6_000).toString('hex');
  const [floor, floorCpu] = await withCpu(
    bench.stack,
    ENGINES,
    () =>
      closedLoop(REQUESTS, CONCURRENCY, async (i) => {
        const id = `floor-${Date.now()}-${i}`;
        await floorCollection.insertOne({ _id: id as unknown as mongoose.mongo.ObjectId, blob });
        await bench.temporal.workflow.start('benchFloor', {
          taskQueue: 'bench-floor-unpolled',
          workflowId: id,
          args: [],
        });
      }),
    { benchProcess: true },
  );
  let n = 0;
  // Acceptance alone, as far as it can be: a document is accepted when its workflow's first step has recorded it
  // (Update-with-Start), so the worker runs; the official validator is paused, so each workflow stops at its
  // validating step and the rest of the pipeline does not share the two cores.
  await withValidatorPaused(bench, async () => {
    const [measured, cpu] = await withCpu(bench.stack, [...API, ...ENGINES, 'worker'], () =>
      closedLoop(REQUESTS, CONCURRENCY, () =>
        expectStatus(post(bench, invoice(bench.companyId, `ACC-${(n += 1)}`)), 202),
      ),
    );
    say(versus(`POST /v1/documents, concurrency ${CONCURRENCY}`, measured, floor, 0.8));
    // The floor's client makes the floor's two round trips in Node, as the API makes its own: what one costs in the driver.
    say(
      `CPU per accepted document (the worker: its workflow's first step): ${cpuView(cpu, measured.count)}; the floor's engines and client ${cpuView(floorCpu, floor.count)}`,
    );
    const apiMs = cpu.api / measured.count;
    say(`the API's own CPU per accepted document: ${ms(apiMs)} (target ≤ 8 ms) ${apiMs <= 8 ? 'MET' : 'NOT MET'}`);
    const half = await openLoop(Math.min(REQUESTS, Math.round(measured.perSecond * 10)), measured.perSecond / 2, () =>
      expectStatus(post(bench, invoice(bench.companyId, `HALF-${(n += 1)}`)), 202),
    );
    say(
      `POST /v1/documents at half that rate (${(measured.perSecond / 2).toFixed(1)}/s, open loop): p50 ${ms(half.p50)}, p99 ${ms(half.p99)} (target p99 ≤ 50 ms) ${half.p99 <= 50 ? 'MET' : 'NOT MET'}`,
    );

    // The batch endpoint: a full batch (100 documents) in one request against the same number one request each.
    const size = Math.min(100, REQUESTS);
    const documents = (prefix: string) =>
      Array.from({ length: size }, () => invoice(bench.companyId, `${prefix}-${(n += 1)}`));
    const singles = documents('ONE');
    const [single, singleCpu] = await withCpu(bench.stack, [...API, ...ENGINES], () =>
      closedLoop(size, CONCURRENCY, (i) => expectStatus(post(bench, singles[i]), 202)),
    );
    const batchBody = JSON.stringify(documents('BATCH'));
    const [batch, batchCpu] = await withCpu(bench.stack, [...API, ...ENGINES], () =>
      singleClient(1, () =>
        expectStatus(
          json(`${bench.api}/v1/documents/batch`, { method: 'POST', headers: bench.auth, body: batchBody }),
          202,
        ),
      ),
    );
    say(
      `${size} documents: one batch request ${ms(batch.seconds * 1000)}, CPU per document ${cpuView(batchCpu, size)}; ` +
        `${size} requests at concurrency ${CONCURRENCY} ${ms(single.seconds * 1000)}, CPU per document ${cpuView(singleCpu, size)}`,
    );
  });
  await drained(bench, 0);
}

/** The engines under the API: what the floor pays too (PostgreSQL under both on the production shape). */
const ENGINES = ['ferretdb', 'temporal', 'postgres'] as const;
/** The API and, on the production shape, the front proxy every request passes. */
const API = ['api', 'front'] as const;

/** Runs `measure` with the official validator stopped (SIGSTOP): the send workflows wait at their validating step, nothing is lost; they go on after. */
async function withValidatorPaused<T>(bench: Bench, measure: () => Promise<T>): Promise<T> {
  const validator = bench.stack.process('validator')?.pid;
  const paused = validator ? withChildren(validator) : [];
  for (const pid of paused) process.kill(pid, 'SIGSTOP');
  try {
    return await measure();
  } finally {
    for (const pid of paused) process.kill(pid, 'SIGCONT');
  }
}

/**
 * The send workflow's activities, doing nothing but answer as the real ones
 * do; typed by the real ones, so a changed activity cannot leave the floor
 * answering what the workflow no longer reads.
 */
const noOpActivities: Pick<
  Activities,
  'recordAcceptance' | 'validateForSending' | 'markSending' | 'deliverByEmail' | 'markDelivered' | 'markFailed'
> = {
  recordAcceptance: recordedAsAccepted,
  validateForSending: () => Promise.resolve({ ruleSet: 'none', refusal: null, readablePdf: 'rendered' }),
  markSending: () => Promise.resolve({ channel: 'email' }),
  deliverByEmail: (id: string) => Promise.resolve({ messageId: `<${id}@bench>`, sentAt: new Date().toISOString() }),
  markDelivered: () => Promise.resolve(),
  markFailed: () => Promise.resolve(),
};

async function deliver(bench: Bench, address: string): Promise<void> {
  // Floor: the send workflow itself, its activities doing nothing, on a worker of this process; started at the
  // benchmark's concurrency and counted as delivered when its last move runs, as the measured path is (its
  // documents posted at that concurrency, counted by their status). Waiting on every workflow's result instead
  // held one long poll per workflow on the server, which then cost more than the workflows.
  const taskQueue = `bench-noop-${Date.now()}`;
  let floorDelivered = 0;
  let allDelivered = () => {};
  const done = new Promise<void>((resolve) => (allDelivered = resolve));
  const native = await NativeConnection.connect({ address });
  const worker = await QueueWorkers.create({
    connection: native,
    baseQueue: taskQueue,
    codePath: await cachedWorkflowBundle(),
    activities: {
      ...noOpActivities,
      markDelivered: () => {
        if ((floorDelivered += 1) === REQUESTS) allDelivered();
        return Promise.resolve();
      },
    },
  });
  const [floor, floorCpu] = await withCpu(
    bench.stack,
    // The Temporal server, and on the production shape its PostgreSQL (which also serves FerretDB, idle here).
    ['temporal', 'postgres'],
    () =>
      worker.runUntil(async () => {
        const started = performance.now();
        // Started as the API starts a document's workflow: with its acceptance, answered by the first step.
        await closedLoop(REQUESTS, CONCURRENCY, (i) =>
          bench.temporal.workflow.executeUpdateWithStart(ACCEPT_UPDATE, {
            updateId: ACCEPT_UPDATE,
            startWorkflowOperation: new WithStartWorkflowOperation<typeof sendDocumentWorkflow>(
              'sendDocumentWorkflow',
              {
                taskQueue,
                workflowId: `${taskQueue}-${i}`,
                workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
                workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
                args: [
                  {
                    documentId: `doc_bench${i}`,
                    acceptance: stubAcceptance(`doc_bench${i}`),
                    deliveryWindowSeconds: 600,
                  },
                ],
              },
            ),
          }),
        );
        await done;
        return throughput(REQUESTS, (performance.now() - started) / 1000);
      }),
    { benchProcess: true },
  );
  await native.close();
  // What the workflow alone costs Temporal and a worker: the least any delivered document can cost.
  say(`CPU per no-op send workflow (the floor): ${cpuView(floorCpu, floor.count)}`);

  // A fresh stack's validator still compiles its rules (measured: 65 ms of its CPU per document cold, 18 warm).
  await postToDelivered(bench, WARM_DOCUMENTS, 'WARM');
  const postgresBefore = postgresCpuByRole(bench.stack);
  const [delivered, cpu] = await withCpu(bench.stack, PIPELINE, () => postToDelivered(bench, REQUESTS, 'DEL'));
  const postgresAfter = postgresCpuByRole(bench.stack);
  say(versus(`POST → delivered, ${REQUESTS} documents (after ${WARM_DOCUMENTS} to warm up)`, delivered, floor, 0.8));
  const total = cpuPerOperation(cpu, delivered.count);
  const floorTotal = cpuPerOperation(floorCpu, floor.count);
  say(
    `CPU per delivered document: ${cpuView(cpu, delivered.count)} (target ≤ 100 ms in all) ${total <= 100 ? 'MET' : 'NOT MET'}; ` +
      `${(total / floorTotal).toFixed(2)}× the no-op floor's ${ms(floorTotal)}`,
  );
  if (Object.keys(postgresAfter).length > 0) {
    const spent = Object.fromEntries(
      Object.entries(postgresAfter).map(([role, after]) => [role, after - (postgresBefore[role] ?? 0)]),
    );
    say(`PostgreSQL's CPU per delivered document by the role it serves: ${cpuView(spent, delivered.count)}`);
  }
}

/** Every process a sandbox document passes through. */
const PIPELINE = ['front', 'api', 'worker', 'temporal', 'ferretdb', 'postgres', 'mail', 'validator'] as const;

/** `count` documents posted at the benchmark's concurrency, until all are delivered: the rate. */
async function postToDelivered(bench: Bench, count: number, prefix: string): Promise<Measurement> {
  const before = await createStore(bench.db).documents.countDocuments({
    company_id: bench.companyId,
    environment: 'sandbox',
  });
  const started = performance.now();
  await closedLoop(count, CONCURRENCY, (i) =>
    expectStatus(post(bench, invoice(bench.companyId, `${prefix}-${i}`)), 202),
  );
  await drained(bench, before + count);
  return throughput(count, (performance.now() - started) / 1000);
}

/** One document at a time, each timed from POST to delivered (polled every 10 ms). */
async function oneAtATime(bench: Bench, count: number): Promise<Measurement> {
  return singleClient(count, async (i) => {
    const posted = await post(bench, invoice(bench.companyId, `ONE-${i}`));
    for (;;) {
      const document = await json(`${bench.api}/v1/documents/${String(posted.body.id)}?company_id=${bench.companyId}`, {
        headers: bench.auth,
      });
      if (document.body.status === 'delivered') return;
      if (document.body.status === 'failed') throw new Error(`failed: ${String(document.body.error_message)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
}

/** A validator that accepts everything at once: the pipeline with nothing to validate, for comparison only. */
async function acceptingValidator(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      const ruleSet = { id: 'stand-in:accept-all', name: 'stand-in', valid_from: null };
      res.end(
        JSON.stringify(
          req.url === '/health'
            ? { status: 'ok', rule_set: ruleSet }
            : { rule_set: ruleSet.id, document_type: 'invoice', problem: null, valid: true, findings: [] },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function validation(bench: Bench): Promise<void> {
  const converted = convertDocument(documentInputSchema.parse(invoice(bench.companyId, 'VAL-1')), company);
  if (!converted.ok) throw new Error(JSON.stringify(converted.violations));
  const validator = officialValidator(bench.stack.urls.validator);
  for (let i = 0; i < WARM_UP; i += 1) await validator.validate(converted.ubl);
  const alone = await singleClient(SAMPLES, () => validator.validate(converted.ubl));
  const parallel = await closedLoop(REQUESTS, 4, () => validator.validate(converted.ubl));
  say(
    `official validation of a 10-line invoice: ${parallel.perSecond.toFixed(1)}/s at concurrency 4; one at a time p50 ${ms(alone.p50)}, p99 ${ms(alone.p99)}`,
  );

  const single = await oneAtATime(bench, 50);
  say(
    `one document at a time, POST → delivered p50 ${ms(single.p50)}: official validation is ${((100 * alone.p50) / single.p50).toFixed(0)} % of it`,
  );

  const withValidation = await postToDelivered(bench, REQUESTS, 'VALID');
  const standIn = await acceptingValidator();
  const other = await benchStack({ VALIDATOR_URL: standIn.url });
  try {
    const api = other.stack.urls.api!;
    const { auth, companyId } = await signUpWithCompany(api, 'bench-novalidation', company);
    const db = await mongoose.createConnection(other.stack.urls.mongodb).asPromise();
    try {
      const without = await postToDelivered(
        { ...bench, stack: other.stack, api, auth, companyId, db },
        REQUESTS,
        'NOVAL',
      );
      const loss = 1 - withValidation.perSecond / without.perSecond;
      say(
        `POST → delivered with official validation ${withValidation.perSecond.toFixed(1)}/s, with a stand-in that accepts at once ${without.perSecond.toFixed(1)}/s: ` +
          `${(100 * loss).toFixed(0)} % lost to validation (target ≤ 20 %) ${loss <= 0.2 ? 'MET' : 'NOT MET'}`,
      );
    } finally {
      await db.close();
    }
  } finally {
    await other.stop();
    await standIn.close();
  }
}

/**
 * The human-readable document: renders per second of a 10-line invoice (PDF and HTML) by the validator's
 * renderer, and the validator's CPU per render beside what converting the same invoice to UBL costs here.
 * No target: the figure to watch (every sandbox delivery renders one PDF for its email).
 */
async function rendering(bench: Bench): Promise<void> {
  const input = documentInputSchema.parse(invoice(bench.companyId, 'REN-1'));
  const converted = convertDocument(input, company);
  if (!converted.ok) throw new Error(JSON.stringify(converted.violations));
  const conversion = await singleClient(SAMPLES, () => Promise.resolve(convertDocument(input, company)));
  const validator = officialValidator(bench.stack.urls.validator);
  const renders = Math.max(4, Math.round(REQUESTS / 10));
  for (const format of ['pdf', 'html'] as const) {
    for (let i = 0; i < Math.min(WARM_UP, 20); i += 1) await validator.render(converted.ubl, format, 'en');
    const [measured, cpu] = await withCpu(bench.stack, ['validator'], () =>
      closedLoop(renders, 2, () => validator.render(converted.ubl, format, 'en')),
    );
    const perRender = cpu.validator / renders;
    say(
      `rendering a 10-line invoice as ${format.toUpperCase()}: ${measured.perSecond.toFixed(1)}/s at concurrency 2 (p50 ${ms(measured.p50)}); ` +
        `validator CPU ${ms(perRender)} a render, ${(perRender / conversion.p50).toFixed(0)}× a UBL conversion (p50 ${ms(conversion.p50)})`,
    );
  }
}

/** Stores documents straight into the database until the company holds `total` (the API is what is measured, not this). */
async function seed(bench: Bench, total: number): Promise<void> {
  const store = createStore(bench.db);
  // One document through the API, as the template of the rows stored straight away.
  if (!(await store.documents.findOne({ company_id: bench.companyId }).lean()))
    await expectStatus(post(bench, invoice(bench.companyId, 'TEMPLATE')), 202);
  const existing = await store.documents.countDocuments({ company_id: bench.companyId, environment: 'sandbox' });
  const template = (await store.documents.findOne({ company_id: bench.companyId }).lean())!;
  for (let done = existing; done < total;) {
    const batch = Math.min(1_000, total - done);
    const now = Date.now();
    await store.documents.insertMany(
      Array.from({ length: batch }, () => {
        const id = newSortableId('document', now);
        return {
          ...template,
          _id: id,
          number: `SEED-${id}`,
          idempotency_scope: `sandbox:${bench.companyId}:doc:${id}`,
          idempotency_key: null,
          status: 'delivered',
        };
      }),
      { lean: true },
    );
    done += batch;
  }
}

async function scale(bench: Bench): Promise<void> {
  const measureAt = async (documents: number) => {
    await seed(bench, documents);
    const list = await json(`${bench.api}/v1/documents?company_id=${bench.companyId}&limit=20`, {
      headers: bench.auth,
    });
    const cursor = String(list.body.next_cursor);
    const replayBody = invoice(bench.companyId, 'REPLAY-1');
    await expectStatus(
      json(`${bench.api}/v1/documents`, {
        method: 'POST',
        headers: { ...bench.auth, 'Idempotency-Key': 'bench-replay' },
        body: JSON.stringify(replayBody),
      }),
      200,
    ).catch(() => undefined);
    const operations: [string, () => Promise<void>][] = [
      [
        'first page',
        () =>
          expectStatus(
            json(`${bench.api}/v1/documents?company_id=${bench.companyId}&limit=20`, { headers: bench.auth }),
            200,
          ),
      ],
      [
        'cursor page',
        () =>
          expectStatus(
            json(`${bench.api}/v1/documents?company_id=${bench.companyId}&limit=20&cursor=${cursor}`, {
              headers: bench.auth,
            }),
            200,
          ),
      ],
      [
        'idempotent replay',
        () =>
          expectStatus(
            json(`${bench.api}/v1/documents`, {
              method: 'POST',
              headers: { ...bench.auth, 'Idempotency-Key': 'bench-replay' },
              body: JSON.stringify(replayBody),
            }),
            200,
          ),
      ],
      ['GET /v1/account', () => expectStatus(json(`${bench.api}/v1/account`, { headers: bench.auth }), 200)],
    ];
    // Let the database settle after the bulk insert (SQLite checkpoints its write-ahead log), and warm every path up.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    for (const [, operation] of operations) for (let i = 0; i < WARM_UP; i += 1) await operation();
    const results = new Map<string, Measurement>();
    for (const [name, operation] of operations) results.set(name, await singleClient(SAMPLES, operation));
    return results;
  };
  const small = await measureAt(1_000);
  const large = await measureAt(STORED);
  for (const [name, atLarge] of large) {
    const atSmall = small.get(name)!;
    const ratio = atLarge.p99 / atSmall.p99;
    const met = atLarge.p99 <= 20 && ratio <= 1.5;
    say(
      `${name}: p99 ${ms(atLarge.p99)} at ${STORED} stored documents, ${ms(atSmall.p99)} at 1000 (ratio ${ratio.toFixed(2)}; targets p99 ≤ 20 ms, ratio ≤ 1.5) ${met ? 'MET' : 'NOT MET'}`,
    );
  }
}

async function volume(bench: Bench): Promise<void> {
  const email = `volume-${Date.now()}@bench.example`;
  const before = await createStore(bench.db).documents.countDocuments({
    company_id: bench.companyId,
    environment: 'sandbox',
  });
  const ids: string[] = [];
  const started = performance.now();
  await closedLoop(VOLUME, CONCURRENCY, async (i) => {
    const response = await post(bench, invoice(bench.companyId, `VOL-${i}`, email));
    if (response.status !== 202) throw new Error(`POST answered ${response.status}`);
    ids.push(String(response.body.id));
  });
  await drained(bench, before + VOLUME);
  const seconds = (performance.now() - started) / 1000;
  const statuses = await createStore(bench.db)
    .documents.find({ _id: { $in: ids } }, { status: 1 })
    .lean();
  const delivered = statuses.filter((row) => row.status === 'delivered').length;
  const inbox = (await (await fetch(`${bench.stack.urls.inbox}/email`)).json()) as {
    messageId: string;
    to: { address: string }[];
  }[];
  const copies = new Map<string, number>();
  for (const message of inbox)
    if (message.to.some((to) => to.address === email))
      copies.set(message.messageId, (copies.get(message.messageId) ?? 0) + 1);
  const lost = ids.filter((id) => !copies.has(`${id}@einvoice.localhost`)).length;
  const twice = [...copies.values()].filter((count) => count > 1).length;
  say(
    `${VOLUME} documents accepted and delivered in ${seconds.toFixed(0)} s (${(VOLUME / seconds).toFixed(1)}/s): ${delivered} delivered, ` +
      `${lost} without an email, ${twice} sent twice ${lost === 0 && twice === 0 && delivered === VOLUME ? 'MET' : 'NOT MET'}`,
  );
}

/**
 * The same accept and pipeline figures with 1, 2, ... API and worker
 * processes (API_PROCESSES, WORKER_PROCESSES): what one more adds on this
 * machine, and which component is busiest (the first to saturate).
 */
async function processes(bench: Bench): Promise<void> {
  const cores = availableParallelism();
  const perCore = (measurement: Measurement) => `${(measurement.perSecond / cores).toFixed(1)}/s per core of ${cores}`;
  say(
    `load average before: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')} (this machine is shared)`,
  );
  const rates = new Map<number, { accept: number; delivered: number }>();
  let n = 0;
  for (const count of PROCESS_COUNTS) {
    await bench.stack.startService('worker', { WORKER_PROCESSES: String(count) });
    await bench.stack.startService('api', { API_PROCESSES: String(count) });
    // Every copy warm (each loads its modules and connects on its first requests) before anything is timed.
    await closedLoop(Math.max(CONCURRENCY, 4 * count), CONCURRENCY, () =>
      expectStatus(post(bench, invoice(bench.companyId, `WARM-${count}-${(n += 1)}`)), 202),
    );
    await drained(bench, 0);
    const label = `with ${count} API and ${count} worker process${count === 1 ? '' : 'es'}`;
    const [accepted, acceptCpu] = await withCpu(bench.stack, PIPELINE, () =>
      closedLoop(REQUESTS, CONCURRENCY, () =>
        expectStatus(post(bench, invoice(bench.companyId, `PROC-${count}-${(n += 1)}`)), 202),
      ),
    );
    say(
      `${label}: POST /v1/documents ${accepted.perSecond.toFixed(1)}/s (${perCore(accepted)}); CPU per document: ${cpuView(acceptCpu, accepted.count, accepted.seconds)}`,
    );
    await drained(bench, 0);
    const [delivered, deliverCpu] = await withCpu(bench.stack, PIPELINE, () =>
      postToDelivered(bench, REQUESTS, `PIPE-${count}`),
    );
    say(
      `${label}: POST → delivered ${delivered.perSecond.toFixed(1)}/s (${perCore(delivered)}); CPU per document: ${cpuView(deliverCpu, delivered.count, delivered.seconds)}`,
    );
    rates.set(count, { accept: accepted.perSecond, delivered: delivered.perSecond });
  }
  const [first, ...more] = PROCESS_COUNTS;
  for (const count of more) {
    const gain = (figure: 'accept' | 'delivered') => {
      const ratio = rates.get(count)![figure] / rates.get(first!)![figure];
      return `×${ratio.toFixed(2)} (${ratio >= 1 ? '+' : ''}${(100 * (ratio - 1)).toFixed(0)} %)`;
    };
    say(
      `${count} processes of each vs ${first}: accept ${gain('accept')}, POST → delivered ${gain('delivered')} (load average after: ${loadavg()[0]!.toFixed(2)})`,
    );
  }
}

/** The parts chosen, on one shape of the stack (or the compose services): its own stack, started and stopped. */
async function onShape(parts: Set<string>, overrides: Record<string, string>): Promise<void> {
  const { stack, stop } = await benchStack(overrides);
  const connection = await Connection.connect({ address: stack.urls.temporal });
  const db = await mongoose.createConnection(stack.urls.mongodb).asPromise();
  try {
    const api = stack.urls.api!;
    const { auth, companyId } = await signUpWithCompany(api, 'bench', company);
    const bench: Bench = { stack, api, auth, companyId, temporal: new Client({ connection }), db };
    say(`stack: ${stack.urls.mongodb}, Temporal ${stack.urls.temporal}`);
    if (parts.has('accept')) await accept(bench);
    if (parts.has('deliver')) await deliver(bench, stack.urls.temporal);
    if (parts.has('validation')) await validation(bench);
    if (parts.has('rendering')) await rendering(bench);
    if (parts.has('volume')) await volume(bench);
    if (parts.has('scale')) await scale(bench);
    // Last: it leaves the API and worker restarted with the last count.
    if (parts.has('processes')) await processes(bench);
  } catch (err) {
    say(
      `the API's last output:\n${stack.process('api')?.tail() ?? ''}\nthe worker's:\n${stack.process('worker')?.tail() ?? ''}`,
    );
    throw err;
  } finally {
    await db.close();
    await connection.close();
    await stop();
  }
}

async function main(): Promise<void> {
  if (PARTS.has('conversion')) conversion();
  if ([...PARTS].every((part) => part === 'conversion')) return;

  if (process.env.BENCH_AGAINST === 'compose') {
    await onShape(PARTS, {
      MONGODB_URI: 'mongodb://127.0.0.1:27017/einvoice_bench?directConnection=true',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      SMTP_URL: 'smtp://127.0.0.1:1025',
    });
    return;
  }
  if (SHAPES.includes('development')) {
    say('== the development shape: the Temporal CLI dev server, FerretDB on SQLite, one API and one worker process');
    await onShape(PARTS, {});
  }
  const production = new Set([...PARTS].filter((part) => PRODUCTION_PARTS.has(part)));
  if (SHAPES.includes('production') && production.size > 0) {
    say(
      '== the production shape: the Temporal server and FerretDB on PostgreSQL, two API and two worker processes behind the front proxy',
    );
    await onShape(production, { STACK_SHAPE: 'production' });
  }
}

runBenchmark(main);
