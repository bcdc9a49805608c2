import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { connectDatabase, pingDatabase } from '../platform/database';
import { connectTemporalClient, pingTemporal } from '../platform/temporal';
import { cachedWorkflowBundle } from '../worker/workflow-bundle';
import { SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../workflows/shared';
import { RESOURCE_NAMES, taskQueueOf } from '../workflows/task-queues';
import { serviceEnvironment, type StackConfig } from './config';
import { acquireDataDirLock } from './data-dir-lock';
import { StackError } from './errors';
import { ferretdbArgs } from './ferretdb/command-line';
import { ferretdbLogFilter } from './ferretdb/log-filter';
import { POSTGRES_DATABASES, postgresUrl } from './production/postgres';
import { TEMPORAL_INTERNAL_PORT_COUNT } from './production/temporal-server';
import { INBOUND_TOKEN_FILE, KYC_KEY_FILE, stackKey, webhookKey } from './keys';
import { ManagedProcess } from './managed-process';
import { LOCAL_SML_ZONE } from './peppol-network/dns-server';
import { oxalisDirs, oxalisHome, oxalisServerCommand } from './peppol-network/oxalis';
import { peppolNetworkReady } from './peppol-network/probe';
import { readParticipants } from './peppol-network/registry';
import { canConnect, isPortFree } from './ports';
import {
  ACCESS_POINT_HEAP,
  accessPointEnvironment,
  accessPointTracing,
  ensureLocalPki,
  type AccessPointTracing,
  LOCAL_RECEIVER_SEAT,
  LOCAL_SENDER_SEAT,
  localPkiFiles,
} from './peppol-access-points';
import { createFilesPrivately, privateDirectory } from './private-files';
import { devServerDynamicConfigArgs } from './temporal-dynamic-config';
import { ensurePostgres, ensureTemporalServer, frontProxyArgs } from './production/engines';
import { ensureWebAppBuilt } from './web-app';
import {
  ensureTool,
  FERRETDB,
  OPENTELEMETRY_JAVA_AGENT,
  PEPPOL_ACCESS_POINT,
  PEPPOL_OXALIS,
  PEPPOL_VALIDATOR,
  TEMPORAL_CLI,
} from './tools';

/**
 * The whole service on one machine from real components: the Temporal dev
 * server, FerretDB, a local SMTP sink with an inbox page, the official Peppol
 * validator, a stand-in of the Peppol network (stack/peppol-network/ and a
 * receiving access point, which also sends), our access point (sending, and
 * receiving into the API's intake), the worker and the API.
 * A component whose address is configured (TEMPORAL_ADDRESS, MONGODB_URI,
 * SMTP_URL, VALIDATOR_URL, ACCESS_POINT_URL, PEPPOL_DNS_SERVER) is used as it
 * is and not started.
 *
 * The stack supervises what it starts: a child that exits unexpectedly is
 * started again after a backoff (1 s, doubling up to 30 s), and only after
 * repeated fast crashes does the stack give up.
 */

export type ServiceName = 'api' | 'worker';
/** @internal */
export type ComponentName =
  | 'postgres'
  | 'temporal'
  | 'temporal-ui'
  | 'ferretdb'
  | 'front'
  | 'mail'
  | 'validator'
  | 'peppol-receiver'
  | 'oxalis'
  | 'peppol-network'
  | 'access-point'
  | ServiceName;

export interface StackOptions {
  config: StackConfig;
  /** Which of the project's own processes to run (both by default). */
  services?: ServiceName[];
  /** Progress and supervision lines for a person watching. */
  log?: (line: string) => void;
  /** Where the API's and worker's output goes besides their log files. */
  echo?: (service: ServiceName, line: string) => void;
  /** Called when a component crashed too often to go on restarting it. */
  onGiveUp?: (name: ComponentName) => void;
  /** Aborted: the start stops at the next component and stops what it had started (a signal during start-up). */
  signal?: AbortSignal;
}

export interface StackUrls {
  api?: string;
  mongodb: string;
  temporal: string;
  temporalUi?: string;
  smtp: string;
  inbox?: string;
  validator: string;
  /** Our access point's control API (POST /send). */
  accessPoint: string;
  /** Where our access point receives AS4, when the stack runs it. */
  accessPointAs4?: string;
  /**
   * The local Peppol network stand-in: its SML's DNS server (host:port), zone,
   * SML management interface (HTTPS), SMP, and access point (AS4 at `/as4`, what arrived at `/inbox`; it sends
   * at `/send`, what it sent at `/sent`), and the local test PKI's CA (PEM file), which its SMP signer and access
   * points chain to.
   */
  peppol?: {
    dnsServer: string;
    zone: string;
    sml: string;
    smp: string;
    receivingAccessPoint: string;
    oxalis: string;
    ca: string;
  };
  /** Prometheus metrics (internal listeners): the API's, the worker's, and the Temporal SDK's of the first worker process (each further one on the next port). */
  metrics: { api?: string; worker?: string; temporalWorker?: string };
}

export interface EmbeddedStack {
  urls: StackUrls;
  /** Environment the API and worker run with (all variables, addresses filled in). */
  serviceEnv: NodeJS.ProcessEnv;
  process(name: ComponentName): ManagedProcess | undefined;
  /**
   * Starts (or starts again) the API or the worker and waits until it is ready;
   * with `env`, it runs with these variables changed from now on (e.g. API_PROCESSES).
   */
  startService(name: ServiceName, env?: Record<string, string>): Promise<void>;
  /** Resolves once the component has been started again by the supervisor (and is ready). */
  restarted(name: ComponentName): Promise<void>;
  stop(): Promise<void>;
}

const projectRoot = path.resolve(__dirname, '..');
/**
 * Each of the validator's worker processes compiles its rule sets or the rendering stylesheets before
 * the validator listens: seven workers by default, some 100 s of CPU together, which on two busy
 * cores (a test suite beside it) is minutes of wall time.
 */
const READY_TIMEOUT_MS = { infrastructure: 60_000, validator: 300_000, worker: 180_000, api: 60_000 };
/** The validator's own process holds the HTTP server, the lanes and the bodies passing through; its workers hold the rules (VALIDATOR_WORKER_HEAP). */
const VALIDATOR_HEAP = '-Xmx256m';
/** How often a start-up that is still waiting for a component says so. */
const PROGRESS_EVERY_MS = 15_000;
/** More crashes than this within the period and the supervisor gives up. */
const CRASH_LIMIT = { count: 5, periodMs: 60_000 };
const MAX_BACKOFF_MS = 30_000;
/** Our SMP's ID in the stand-in SML (OpenPeppol assigns the real one). */
const LOCAL_SMP_ID = 'SMP-EINVOICE-LOCAL';

export async function startStack(options: StackOptions): Promise<EmbeddedStack> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const services = options.services ?? ['worker', 'api'];
  // A configured PEPPOL_DNS_SERVER means a real (or another) SML: the Peppol network stand-in is not started.
  const runs = {
    temporal: !config.TEMPORAL_ADDRESS,
    ferretdb: !config.MONGODB_URI,
    mail: !config.SMTP_URL,
    validator: !config.VALIDATOR_URL,
    accessPoint: !config.ACCESS_POINT_URL,
    peppolNetwork: !config.PEPPOL_DNS_SERVER,
  };
  const production = config.STACK_SHAPE === 'production';
  const runsPostgres = production && (runs.temporal || runs.ferretdb);

  createFilesPrivately();
  await privateDirectory(config.DATA_DIR);
  const logsDir = path.join(config.DATA_DIR, 'logs');
  await mkdir(logsDir, { recursive: true });
  const lock = await acquireDataDirLock(config.DATA_DIR);
  const processes = new Map<ComponentName, ManagedProcess>();
  /** How each component is started and judged ready; the supervisor restarts with the same. */
  const starters = new Map<ComponentName, () => Promise<void>>();
  const restartWaiters = new Map<ComponentName, (() => void)[]>();
  const crashes = new Map<ComponentName, number[]>();
  let stopping = false;

  const urls: StackUrls = {
    mongodb: config.MONGODB_URI ?? `mongodb://127.0.0.1:${config.FERRETDB_PORT}/einvoice`,
    temporal: config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`,
    smtp: config.SMTP_URL ?? `smtp://127.0.0.1:${config.SMTP_PORT}`,
    validator: config.VALIDATOR_URL ?? `http://127.0.0.1:${config.VALIDATOR_PORT}`,
    accessPoint: config.ACCESS_POINT_URL ?? `http://127.0.0.1:${config.ACCESS_POINT_PORT}`,
    ...(runs.accessPoint && { accessPointAs4: `http://127.0.0.1:${config.ACCESS_POINT_AS4_PORT}/as4` }),
    ...(runs.temporal && { temporalUi: `http://127.0.0.1:${config.TEMPORAL_UI_PORT}` }),
    ...(runs.mail && { inbox: `http://127.0.0.1:${config.MAIL_UI_PORT}` }),
    ...(runs.peppolNetwork && {
      peppol: {
        dnsServer: `127.0.0.1:${config.SML_DNS_PORT}`,
        zone: LOCAL_SML_ZONE,
        sml: `https://127.0.0.1:${config.STANDIN_SML_PORT}`,
        smp: `http://127.0.0.1:${config.STANDIN_SMP_PORT}`,
        receivingAccessPoint: `http://127.0.0.1:${config.PEPPOL_RECEIVER_PORT}`,
        oxalis: `http://127.0.0.1:${config.OXALIS_PORT}/as4`,
        ca: localPkiFiles(path.join(config.DATA_DIR, 'peppol-pki')).ca,
      },
    }),
    ...(services.includes('api') && { api: `http://127.0.0.1:${config.PORT}` }),
    metrics: {
      ...(services.includes('api') && { api: `http://127.0.0.1:${config.METRICS_PORT}/metrics` }),
      ...(services.includes('worker') && {
        worker: `http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`,
        temporalWorker: `http://127.0.0.1:${config.TEMPORAL_METRICS_PORT}/metrics`,
      }),
    },
  };
  /** Where the API processes listen: PORT, or behind the production shape's front proxy. */
  const apiPort = production ? config.API_BEHIND_FRONT_PORT : config.PORT;
  // The intake token goes to our access point and, once the others have started, to the API and worker only.
  // Our SMP is served only beside the access point the stack runs (its settings are added there), never with ACCESS_POINT_URL's.
  const {
    INBOUND_TOKEN: _heldBack,
    SMP_PORT: _servedWithOurAccessPoint,
    ...inherited
  } = { ...process.env, ...serviceEnvironment(config) };
  const serviceEnv: NodeJS.ProcessEnv = {
    ...inherited,
    MONGODB_URI: urls.mongodb,
    TEMPORAL_ADDRESS: urls.temporal,
    SMTP_URL: urls.smtp,
    VALIDATOR_URL: urls.validator,
    ACCESS_POINT_URL: urls.accessPoint,
    // The stand-in's SMP listens on 127.0.0.1 and speaks http, which the SMP rules refuse elsewhere;
    // its signature and its access point's certificate chain to the local test CA, not Peppol's.
    ...(urls.peppol && {
      PEPPOL_SML_ZONE: urls.peppol.zone,
      PEPPOL_DNS_SERVER: urls.peppol.dnsServer,
      PEPPOL_ALLOW_PRIVATE_SMP: 'true',
      PEPPOL_ALLOW_HTTP_SMP: 'true',
      // With PEPPOL_SML_LOOKUP=cname the legacy names lead to the stand-in's SMP, which is not on port 80.
      PEPPOL_SML_CNAME_SMP_PORT: new URL(urls.peppol.smp).port,
      PEPPOL_SMP_CA: urls.peppol.ca,
      PEPPOL_AP_CA: urls.peppol.ca,
    }),
    // The embedded stack is where new code runs first: any query without its index fails loudly.
    STRICT_QUERY_SHAPES: 'true',
  };

  const whenReady = async (managed: ManagedProcess, what: string, timeoutMs: number, ready: () => Promise<boolean>) => {
    const startedAt = Date.now();
    const deadline = startedAt + timeoutMs;
    let nextProgress = startedAt + PROGRESS_EVERY_MS;
    while (Date.now() < deadline) {
      if (options.signal?.aborted) throw new StackError(`stopped while waiting for ${what}`);
      if (!managed.running) throw new StackError(`${what} exited during start-up. Its last output:\n${managed.tail()}`);
      if (await ready()) return;
      if (Date.now() >= nextProgress) {
        // A JVM compiling its rules takes tens of seconds, more on a busy machine: say it is not stuck.
        log(
          `still waiting for ${what} (${Math.round((Date.now() - startedAt) / 1000)} s; at most ${timeoutMs / 1000} s)`,
        );
        nextProgress += PROGRESS_EVERY_MS;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new StackError(`${what} was not ready after ${timeoutMs / 1000} s. Its last output:\n${managed.tail()}`);
  };

  const supervise = (name: ComponentName, managed: ManagedProcess) => {
    managed.onUnexpectedExit = (code) => {
      if (stopping) return;
      const now = Date.now();
      const recent = [...(crashes.get(name) ?? []), now].filter((at) => at > now - CRASH_LIMIT.periodMs);
      crashes.set(name, recent);
      if (recent.length > CRASH_LIMIT.count) {
        log(
          `${name} crashed ${recent.length} times within ${CRASH_LIMIT.periodMs / 1000} s; giving up (see ${path.join(logsDir, `${name}.log`)})`,
        );
        options.onGiveUp?.(name);
        return;
      }
      const delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** (recent.length - 1));
      log(
        `${name} exited unexpectedly (code ${code}); restarting in ${delay / 1000} s (restart ${recent.length} of at most ${CRASH_LIMIT.count} per minute)`,
      );
      setTimeout(() => {
        if (stopping) return;
        starters.get(name)!()
          .then(() => {
            log(`${name} restarted`);
            for (const resolve of restartWaiters.get(name) ?? []) resolve();
            restartWaiters.delete(name);
          })
          .catch((err: unknown) => log(`${name} did not come back: ${(err as Error).message}`));
      }, delay).unref();
    };
  };

  /**
   * Declares a component: how to spawn it and when it is ready; starts it now.
   * It runs with the services' environment, plus `env` when given.
   */
  const component = async (
    name: ComponentName,
    command: string,
    args: () => Promise<string[]> | string[],
    what: string,
    timeoutMs: number,
    ready: (managed: ManagedProcess) => Promise<boolean>,
    extras: {
      echo?: (line: string) => void;
      env?: Record<string, string>;
      user?: { uid: number; gid: number };
      stopSignal?: NodeJS.Signals;
      logFilter?: (line: string) => string[];
    } = {},
  ) => {
    const { echo, env, user, stopSignal, logFilter } = extras;
    const start = async () => {
      const existing = processes.get(name);
      const managed =
        existing ??
        new ManagedProcess(name, command, await args(), {
          env: { ...serviceEnv, ...env },
          logFile: path.join(logsDir, `${name}.log`),
          ...(echo && { echo }),
          ...(user && { user }),
          ...(stopSignal && { stopSignal }),
          ...(logFilter && { logFilter }),
        });
      processes.set(name, managed);
      supervise(name, managed);
      managed.start();
      await whenReady(managed, what, timeoutMs, () => ready(managed));
    };
    starters.set(name, start);
    await start();
  };

  const stop = async () => {
    stopping = true;
    // Reverse start order: the API and worker drain before the services they use go away.
    for (const managed of [...processes.values()].reverse()) await managed.close();
    await lock.release();
  };

  const serviceComponent = async (name: ServiceName, env: Record<string, string> = {}) => {
    const entry = path.join(projectRoot, name === 'api' ? 'api/server.ts' : 'worker/main.ts');
    const copies = Number(env.WORKER_PROCESSES ?? config.WORKER_PROCESSES);
    const ready =
      name === 'worker'
        ? async (managed: ManagedProcess) => {
            // Ready means polling: the new process (pid@host), or each of its WORKER_PROCESSES copies, is among the task queue's pollers.
            const client = connectTemporalClient(urls.temporal);
            try {
              return (await pollingCopies(client, config.TEMPORAL_NAMESPACE, managed.pid!)) >= copies;
            } finally {
              await client.close();
            }
          }
        : async () => (await fetch(`http://127.0.0.1:${apiPort}/v1/health`).catch(() => undefined))?.status === 200;
    await component(
      name,
      process.execPath,
      () => ['--import', 'tsx', entry],
      name === 'api' ? 'the API' : 'the worker',
      READY_TIMEOUT_MS[name],
      ready,
      {
        echo: (line) => options.echo?.(name, line),
        env: name === 'api' ? { PORT: String(apiPort), ...env } : env,
      },
    );
  };

  const startService = async (name: ServiceName, env?: Record<string, string>) => {
    const existing = processes.get(name);
    if (existing && !env) {
      await existing.stop();
      await starters.get(name)!();
      return;
    }
    // A changed environment needs a process of its own (a managed process keeps the one it was made with).
    await existing?.close();
    processes.delete(name);
    await serviceComponent(name, env);
  };

  try {
    await checkPortsFree(config, { ...runs, postgres: runsPostgres, production }, services);
    if (runsPostgres) {
      const postgres = await ensurePostgres(config);
      await component(
        'postgres',
        postgres.binary,
        () => postgres.args,
        'PostgreSQL',
        READY_TIMEOUT_MS.infrastructure,
        postgres.ready,
        {
          ...(postgres.user && { user: postgres.user }),
          stopSignal: 'SIGINT',
        },
      );
      await postgres.afterStart();
      log(
        `postgres   127.0.0.1:${config.POSTGRES_PORT} (PostgreSQL ${postgres.version}, data in ${postgres.dataDir}; Temporal's and FerretDB's databases)`,
      );
    }
    if (runs.temporal && production) {
      const server = await ensureTemporalServer(config, log);
      await component(
        'temporal',
        server.binary,
        () => server.args,
        'the Temporal server',
        READY_TIMEOUT_MS.infrastructure,
        server.ready,
      );
      await component(
        'temporal-ui',
        server.ui.binary,
        () => server.ui.args,
        'the Temporal Web UI',
        READY_TIMEOUT_MS.infrastructure,
        () => httpOk(urls.temporalUi!),
      );
      log(
        `temporal   ${urls.temporal} (Temporal server ${server.version} on PostgreSQL, ${config.TEMPORAL_HISTORY_SHARDS} history shards, ` +
          `advanced visibility on PostgreSQL; Web UI ${urls.temporalUi})`,
      );
    }
    if (runs.temporal && !production) {
      const temporalBinary = await ensureTool(config.TOOLS_DIR, TEMPORAL_CLI, log);
      await mkdir(path.join(config.DATA_DIR, 'temporal'), { recursive: true });
      await component(
        'temporal',
        temporalBinary,
        () => [
          'server',
          'start-dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(config.TEMPORAL_PORT),
          '--ui-port',
          String(config.TEMPORAL_UI_PORT),
          '--db-filename',
          path.join(config.DATA_DIR, 'temporal', 'temporal.db'),
          // Write-ahead log, synced at checkpoints: survives a crash of any process, not a power loss (see docs/operations.md, Durability).
          '--sqlite-pragma',
          'journal_mode=wal',
          '--sqlite-pragma',
          'synchronous=normal',
          '--namespace',
          config.TEMPORAL_NAMESPACE,
          '--log-level',
          'warn',
          ...devServerDynamicConfigArgs(),
          ...Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => [
            '--search-attribute',
            `${name}=${type}`,
          ]),
        ],
        'the Temporal dev server',
        READY_TIMEOUT_MS.infrastructure,
        async () => {
          const client = connectTemporalClient(urls.temporal);
          try {
            return (await pingTemporal(client, 1_000)) && (await httpOk(urls.temporalUi!));
          } finally {
            await client.close();
          }
        },
      );
      log(
        `temporal   ${urls.temporal} (state in ${path.join(config.DATA_DIR, 'temporal')}; Web UI ${urls.temporalUi})`,
      );
    }
    if (runs.ferretdb) {
      const ferretdbBinary = await ensureTool(config.TOOLS_DIR, FERRETDB, log);
      const dbDir = path.join(config.DATA_DIR, 'ferretdb');
      await mkdir(path.join(dbDir, 'state'), { recursive: true });
      await mkdir(path.join(dbDir, 'sqlite'), { recursive: true });
      await component(
        'ferretdb',
        ferretdbBinary,
        () =>
          ferretdbArgs(
            dbDir,
            config.FERRETDB_PORT,
            production
              ? {
                  handler: 'postgresql',
                  url: postgresUrl(
                    config.POSTGRES_PORT,
                    POSTGRES_DATABASES.ferretdb,
                    POSTGRES_DATABASES.ferretdb.database,
                  ),
                }
              : { handler: 'sqlite' },
          ),
        'FerretDB',
        READY_TIMEOUT_MS.infrastructure,
        async () => {
          if (!(await canConnect(config.FERRETDB_PORT))) return false;
          const db = await connectDatabase(urls.mongodb).catch(() => undefined);
          try {
            return db !== undefined && (await pingDatabase(db));
          } finally {
            await db?.close();
          }
        },
        // Without the failed responses every start and every closed connection makes as a matter of course.
        { logFilter: ferretdbLogFilter() },
      );
      log(
        `mongodb    ${urls.mongodb} (FerretDB on ${production ? `PostgreSQL, database ${POSTGRES_DATABASES.ferretdb.database}` : `SQLite in ${dbDir}`})`,
      );
    }
    if (runs.mail) {
      const mailDir = path.join(config.DATA_DIR, 'mail');
      await mkdir(mailDir, { recursive: true });
      await component(
        'mail',
        process.execPath,
        () => [
          require.resolve('maildev/bin/maildev'),
          '--ip',
          '127.0.0.1',
          '--smtp',
          String(config.SMTP_PORT),
          '--web',
          String(config.MAIL_UI_PORT),
          '--mail-directory',
          mailDir,
        ],
        'the mail sink',
        READY_TIMEOUT_MS.infrastructure,
        async () => (await canConnect(config.SMTP_PORT)) && httpOk(urls.inbox!),
      );
      log(`smtp       ${urls.smtp} (inbox ${urls.inbox})`);
    }
    if (runs.validator) {
      const jar = await ensureTool(config.TOOLS_DIR, PEPPOL_VALIDATOR, log);
      await component(
        'validator',
        'java',
        () => [
          VALIDATOR_HEAP,
          '-jar',
          jar,
          '--host',
          '127.0.0.1',
          '--port',
          String(config.VALIDATOR_PORT),
          '--lane-permits',
          config.VALIDATOR_LANE_PERMITS,
          '--recycle-after',
          String(config.VALIDATOR_RECYCLE_AFTER),
          '--worker-heap',
          config.VALIDATOR_WORKER_HEAP,
        ],
        'the official validator',
        READY_TIMEOUT_MS.validator,
        async () => httpOk(`${urls.validator}/health`),
      );
      log(
        `validator  ${urls.validator} (official Peppol BIS Billing 3.0 rules, ${PEPPOL_VALIDATOR.name} ${PEPPOL_VALIDATOR.version})`,
      );
    }
    // Our access point presents it and the API checks it; no other process gets it (the stand-in plays foreign parties).
    const inboundToken = config.INBOUND_TOKEN ?? (await stackKey(config.KEYS_DIR, INBOUND_TOKEN_FILE));
    if (runs.accessPoint || urls.peppol) {
      const jar = await ensureTool(config.TOOLS_DIR, PEPPOL_ACCESS_POINT, log);
      const pki = await ensureLocalPki(jar, path.join(config.DATA_DIR, 'peppol-pki'));
      const accessPoint = async (
        name: 'peppol-receiver' | 'access-point',
        role: 'receiver' | 'sender',
        url: string,
        env: Record<string, string>,
        what: string,
        tracing?: AccessPointTracing,
      ) => {
        await component(
          name,
          'java',
          () => [ACCESS_POINT_HEAP, ...(tracing?.jvmArgs ?? []), '-jar', jar, role],
          what,
          READY_TIMEOUT_MS.infrastructure,
          async () => httpOk(`${url}/health`),
          {
            env: { ...env, ...tracing?.env },
          },
        );
      };
      if (urls.peppol) {
        const peppol = urls.peppol;
        const receiverDir = path.join(config.DATA_DIR, 'peppol-network');
        await accessPoint(
          'peppol-receiver',
          'receiver',
          peppol.receivingAccessPoint,
          accessPointEnvironment({
            port: config.PEPPOL_RECEIVER_PORT,
            keystore: pki.receiverKeystore,
            truststore: pki.truststore,
            dataDir: path.join(receiverDir, 'access-point'),
            inboxDir: path.join(receiverDir, 'inbox'),
            refusedReceivers: (await readParticipants())
              .filter((participant) => participant.refusedByAccessPoint)
              .map((participant) => participant.id),
          }),
          "the local Peppol network's receiving access point",
        );
        // The independent access point (Oxalis), for the participants it serves: another implementation than ours and the stand-in's.
        const oxalisDir = oxalisDirs(config.DATA_DIR);
        const oxalisServer = oxalisServerCommand(
          await oxalisHome(await ensureTool(config.TOOLS_DIR, PEPPOL_OXALIS, log), oxalisDir.server, {
            keystore: pki.oxalisKeystore,
            trustedCas: [pki.ca],
            truststore: pki.truststoreJks,
            server: { port: config.OXALIS_PORT, inboundDir: oxalisDir.inbound },
          }),
        );
        await component(
          'oxalis',
          'java',
          () => oxalisServer.args,
          "the local Peppol network's independent access point (Oxalis)",
          READY_TIMEOUT_MS.infrastructure,
          async () => httpOk(`http://127.0.0.1:${config.OXALIS_PORT}/status`),
          {
            env: oxalisServer.env,
          },
        );
        await component(
          'peppol-network',
          process.execPath,
          () => [
            '--import',
            'tsx',
            path.join(projectRoot, 'stack/peppol-network/main.ts'),
            ...[
              '--zone',
              peppol.zone,
              '--dns-port',
              String(config.SML_DNS_PORT),
              '--smp-port',
              String(config.STANDIN_SMP_PORT),
            ],
            ...['--ap-url', `${peppol.receivingAccessPoint}/as4`, '--ap-certificate', pki.receiverCertificate],
            ...['--oxalis-url', peppol.oxalis, '--oxalis-certificate', pki.oxalisCertificate],
            ...['--smp-certificate', pki.smpCertificate, '--smp-key', pki.smpKey],
            ...[
              '--sml-port',
              String(config.STANDIN_SML_PORT),
              '--sml-certificate',
              pki.smlServerCertificate,
              '--sml-key',
              pki.smlServerKey,
              '--ca',
              pki.ca,
            ],
            ...['--sml-registrations', path.join(receiverDir, 'sml-registrations.json')],
            ...[
              '--inbox',
              path.join(receiverDir, 'inbox'),
              '--ap-control',
              peppol.receivingAccessPoint,
              '--data-dir',
              config.DATA_DIR,
            ],
            ...['--respond', config.STANDIN_INVOICE_RESPONSE, '--seat', LOCAL_RECEIVER_SEAT],
          ],
          'the local Peppol network stand-in',
          READY_TIMEOUT_MS.infrastructure,
          () => peppolNetworkReady(peppol.dnsServer, peppol.zone, peppol.smp),
        );
        log(
          `peppol     local stand-in: SML zone ${peppol.zone} on DNS ${peppol.dnsServer} (management ${peppol.sml}), SMP ${peppol.smp}, ` +
            `access point ${peppol.receivingAccessPoint}/as4 (what arrived: ${peppol.receivingAccessPoint}/inbox; what it sent: ${peppol.receivingAccessPoint}/sent); ` +
            `independent access point (Oxalis ${PEPPOL_OXALIS.version}) ${peppol.oxalis} (what arrived: ${oxalisDir.inbound})`,
        );
      }
      if (runs.accessPoint) {
        // In the traces of the API and worker when they are exported; the agent is fetched only then.
        const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
          ? accessPointTracing(await ensureTool(config.TOOLS_DIR, OPENTELEMETRY_JAVA_AGENT, log))
          : undefined;
        await accessPoint(
          'access-point',
          'sender',
          urls.accessPoint,
          accessPointEnvironment({
            port: config.ACCESS_POINT_PORT,
            keystore: pki.senderKeystore,
            truststore: pki.truststore,
            dataDir: path.join(config.DATA_DIR, 'access-point'),
            sendTimeoutMs: config.AS4_SEND_TIMEOUT,
            // Our SMP's participants go into the stand-in's SML, their business cards to its Directory (served beside
            // the SML); the real ones are configured on a deployed access point.
            ...(urls.peppol && {
              sml: {
                url: urls.peppol.sml,
                smpId: LOCAL_SMP_ID,
                smpUrl: `http://127.0.0.1:${config.SMP_PORT}`,
                keystore: pki.smpKeystore,
                directoryUrl: urls.peppol.sml,
              },
            }),
            inbound: {
              as4Port: config.ACCESS_POINT_AS4_PORT,
              intakeUrl: `http://127.0.0.1:${config.INBOUND_PORT}/inbound`,
              intakeToken: inboundToken,
            },
          }),
          'our access point',
          tracing,
        );
        // Our SMP (in the API process) publishes our registered companies with this access point's endpoint.
        Object.assign(serviceEnv, {
          SMP_PORT: String(config.SMP_PORT),
          SMP_PUBLIC_URL: `http://127.0.0.1:${config.SMP_PORT}`,
          SMP_SIGNING_CERTIFICATE: pki.smpCertificate,
          SMP_SIGNING_KEY: pki.smpKey,
          ACCESS_POINT_ENDPOINT_URL: urls.accessPointAs4!,
          ACCESS_POINT_CERTIFICATE: pki.senderCertificate,
          // The seat of our access point's certificate in the local test PKI (TestPki.java).
          PEPPOL_SEAT_ID: LOCAL_SENDER_SEAT,
        });
        log(
          `ap         ${urls.accessPoint} (our AS4 access point, ${PEPPOL_ACCESS_POINT.version}; receives at ${urls.accessPointAs4} into ` +
            `http://127.0.0.1:${config.INBOUND_PORT}/inbound; certificate from the local test PKI in ${pki.dir}` +
            `${tracing ? `; traced by ${OPENTELEMETRY_JAVA_AGENT.name} ${OPENTELEMETRY_JAVA_AGENT.version}` : ''})`,
        );
      }
    }
    serviceEnv.INBOUND_TOKEN = inboundToken;
    serviceEnv.WEBHOOK_SECRET_KEY = config.WEBHOOK_SECRET_KEY ?? (await webhookKey(config.DATA_DIR, config.KEYS_DIR));
    serviceEnv.KYC_ENCRYPTION_KEY = config.KYC_ENCRYPTION_KEY ?? (await stackKey(config.KEYS_DIR, KYC_KEY_FILE));
    if (services.includes('worker')) {
      serviceEnv.WORKFLOW_BUNDLE = await cachedWorkflowBundle();
      await serviceComponent('worker');
      log(
        `worker     task queues ${RESOURCE_NAMES.map((resource) => taskQueueOf(resource, TASK_QUEUE)).join(', ')} on ${urls.temporal} (${processCount(config.WORKER_PROCESSES)}; WORKER_PROCESSES)`,
      );
      log(
        `metrics    worker ${urls.metrics.worker}, Temporal SDK ${urls.metrics.temporalWorker} (each further worker process on the next port)`,
      );
    }
    if (services.includes('api')) {
      if (production) {
        await component(
          'front',
          process.execPath,
          () => frontProxyArgs(config),
          'the front proxy',
          READY_TIMEOUT_MS.infrastructure,
          () => canConnect(config.PORT),
        );
      }
      if (await ensureWebAppBuilt()) log('web app    built into dist/app');
      await serviceComponent('api');
      log(
        `api        ${urls.api} (${processCount(config.API_PROCESSES)}; API_PROCESSES${production ? `; behind the front proxy, at 127.0.0.1:${config.API_BEHIND_FRONT_PORT}` : ''})`,
      );
      log(`metrics    api ${urls.metrics.api}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    urls,
    serviceEnv,
    process: (name) => processes.get(name),
    startService,
    restarted: (name) =>
      new Promise((resolve) => restartWaiters.set(name, [...(restartWaiters.get(name) ?? []), resolve])),
    stop,
  };
}

async function checkPortsFree(
  config: StackConfig,
  runs: Record<
    'postgres' | 'production' | 'temporal' | 'ferretdb' | 'mail' | 'validator' | 'accessPoint' | 'peppolNetwork',
    boolean
  >,
  services: ServiceName[],
) {
  const temporalInternal = Array.from(
    { length: TEMPORAL_INTERNAL_PORT_COUNT },
    (_, offset): [boolean, number, string] => [
      runs.temporal && runs.production,
      config.TEMPORAL_INTERNAL_PORT + offset,
      `TEMPORAL_INTERNAL_PORT${offset === 0 ? '' : ` + ${offset}`}`,
    ],
  );
  const wanted: [boolean, number, string][] = [
    [runs.postgres, config.POSTGRES_PORT, 'POSTGRES_PORT'],
    ...temporalInternal,
    [services.includes('api') && runs.production, config.API_BEHIND_FRONT_PORT, 'API_BEHIND_FRONT_PORT'],
    [runs.temporal, config.TEMPORAL_PORT, 'TEMPORAL_PORT'],
    [runs.temporal, config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT'],
    [runs.ferretdb, config.FERRETDB_PORT, 'FERRETDB_PORT'],
    [runs.mail, config.SMTP_PORT, 'SMTP_PORT'],
    [runs.mail, config.MAIL_UI_PORT, 'MAIL_UI_PORT'],
    [runs.validator, config.VALIDATOR_PORT, 'VALIDATOR_PORT'],
    [runs.peppolNetwork, config.STANDIN_SML_PORT, 'STANDIN_SML_PORT'],
    [runs.peppolNetwork, config.STANDIN_SMP_PORT, 'STANDIN_SMP_PORT'],
    [runs.peppolNetwork, config.PEPPOL_RECEIVER_PORT, 'PEPPOL_RECEIVER_PORT'],
    [runs.peppolNetwork, config.OXALIS_PORT, 'OXALIS_PORT'],
    [runs.accessPoint, config.ACCESS_POINT_PORT, 'ACCESS_POINT_PORT'],
    [runs.accessPoint, config.ACCESS_POINT_AS4_PORT, 'ACCESS_POINT_AS4_PORT'],
    [runs.accessPoint && services.includes('api'), config.SMP_PORT, 'SMP_PORT'],
    [services.includes('api'), config.PORT, 'PORT'],
    [services.includes('api'), config.INBOUND_PORT, 'INBOUND_PORT'],
    [services.includes('api'), config.METRICS_PORT, 'METRICS_PORT'],
    [services.includes('worker'), config.WORKER_METRICS_PORT, 'WORKER_METRICS_PORT'],
    ...Array.from({ length: config.WORKER_PROCESSES }, (_, copy): [boolean, number, string] => [
      services.includes('worker'),
      config.TEMPORAL_METRICS_PORT + copy,
      `TEMPORAL_METRICS_PORT${copy === 0 ? '' : ` + ${copy}`}`,
    ]),
  ];
  const busy: string[] = [];
  for (const [needed, port, variable] of wanted) {
    if (needed && !(await isPortFree(port))) busy.push(`${variable}=${port}`);
  }
  if (busy.length > 0) {
    throw new StackError(
      `port already in use: ${busy.join(', ')}. Another stack (or another program) is running; stop it, or choose other ports with these variables.`,
    );
  }
}

const processCount = (count: number) => `${count} process${count === 1 ? '' : 'es'}`;

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
  return response?.ok === true;
}

/** How many pollers of the task queue are this process or its copies (their identities: platform/process-copies.ts). */
async function pollingCopies(client: Connection, namespace: string, pid: number): Promise<number> {
  const { pollers } = await client.workflowService
    .describeTaskQueue({
      namespace,
      taskQueue: { name: TASK_QUEUE },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    })
    .catch(() => ({ pollers: [] }));
  const ours = (identity: string) => identity.startsWith(`${pid}@`) || identity.endsWith(` copy of ${pid}`);
  return new Set((pollers ?? []).map((poller) => poller.identity ?? '').filter(ours)).size;
}
