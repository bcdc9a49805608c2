import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { connectDatabase, pingDatabase } from '../platform/database';
import { connectTemporalClient, pingTemporal } from '../platform/temporal';
import { cachedWorkflowBundle } from '../worker/workflow-bundle';
import { SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../workflows/shared';
import { RESOURCE_NAMES, taskQueueOf } from '../workflows/task-queues';
import type { StackConfig } from './config';
import { ferretdbArgs } from './ferretdb/command-line';
import { ferretdbLogFilter } from './ferretdb/log-filter';
import { INBOUND_TOKEN_FILE, KYC_KEY_FILE, stackKey, webhookKey } from './keys';
import type { ManagedProcess } from './managed-process';
import {
  ACCESS_POINT_HEAP,
  accessPointEnvironment,
  accessPointTracing,
  ensureLocalPki,
  LOCAL_RECEIVER_SEAT,
  LOCAL_SENDER_SEAT,
  type AccessPointTracing,
  type LocalPki,
} from './peppol-access-points';
import { oxalisDirs, oxalisHome, oxalisServerCommand } from './peppol-network/oxalis';
import { peppolNetworkReady } from './peppol-network/probe';
import { readParticipants } from './peppol-network/registry';
import { canConnect } from './ports';
import { ensurePostgres, ensureTemporalServer, frontProxyArgs } from './production/engines';
import { POSTGRES_DATABASES, postgresUrl } from './production/postgres';
import { TEMPORAL_INTERNAL_PORT_COUNT } from './production/temporal-server';
import type { ProcessSpec } from './supervisor';
import { devServerDynamicConfigArgs } from './temporal-dynamic-config';
import {
  ensureTool,
  FERRETDB,
  OPENTELEMETRY_JAVA_AGENT,
  PEPPOL_ACCESS_POINT,
  PEPPOL_OXALIS,
  PEPPOL_VALIDATOR,
  TEMPORAL_CLI,
} from './tools';
import { ensureWebAppBuilt } from './web-app';

/**
 * The components of the embedded stack, as a table in start order: what each one is, whether this stack runs it,
 * whom it needs started first, the ports it takes and how it is spawned and judged ready. startStack runs the
 * table through the supervisor (stack/supervisor.ts); nothing else decides the order.
 */

export type ServiceName = 'api' | 'worker';
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

/** What the stack runs itself rather than use from elsewhere: a configured address means "use that one". */
export interface Runs {
  postgres: boolean;
  temporal: boolean;
  ferretdb: boolean;
  mail: boolean;
  validator: boolean;
  accessPoint: boolean;
  peppolNetwork: boolean;
  api: boolean;
  worker: boolean;
}

/** What every component's declaration reads: the configuration, the addresses, and what earlier ones left. */
export interface StackContext {
  config: StackConfig;
  production: boolean;
  runs: Runs;
  urls: StackUrls;
  /** The environment the API and worker (and every other process) start with; components add to it as they start. */
  serviceEnv: NodeJS.ProcessEnv;
  log: (line: string) => void;
  echo?: (service: ServiceName, line: string) => void;
  /** The local test PKI (made once, by our access point's program). */
  pki: () => Promise<LocalPki>;
  /** The token our access point presents to the API's intake. */
  inboundToken: () => Promise<string>;
  /** The keys only the API and worker hold: the intake token, the webhook secrets' key, the KYC key. */
  serviceKeys: () => Promise<Record<'INBOUND_TOKEN' | 'WEBHOOK_SECRET_KEY' | 'KYC_ENCRYPTION_KEY', string>>;
  /** The production shape's Temporal server and Web UI, prepared once (its schemas set up) for both components. */
  temporalServer: () => ReturnType<typeof ensureTemporalServer>;
}

/** What a component's preparation gives: how to spawn it, the banner's line, and what to do once it is ready. */
interface Prepared {
  spec: ProcessSpec<ComponentName>;
  /** The start-up banner's line for it, if it has one of its own. */
  banner?: string;
  started?: () => Promise<void>;
}

interface Component {
  name: ComponentName;
  runs: (ctx: StackContext) => boolean;
  /** Components that must be ready before this one starts, when the stack runs them. */
  needs: ComponentName[];
  /** The ports it listens on, each with the variable that chooses it. */
  ports: (ctx: StackContext) => [number, string][];
  prepare: (ctx: StackContext) => Promise<Prepared>;
}

/**
 * Each of the validator's worker processes compiles its rule sets or the rendering stylesheets before
 * the validator listens: seven workers by default, some 100 s of CPU together, which on two busy
 * cores (a test suite beside it) is minutes of wall time.
 */
const READY_TIMEOUT_MS = { infrastructure: 60_000, validator: 300_000, worker: 180_000, api: 60_000 };
/** The validator's own process holds the HTTP server, the lanes and the bodies passing through; its workers hold the rules (VALIDATOR_WORKER_HEAP). */
const VALIDATOR_HEAP = '-Xmx256m';
/** Our SMP's ID in the stand-in SML (OpenPeppol assigns the real one). */
const LOCAL_SMP_ID = 'SMP-EINVOICE-LOCAL';
const projectRoot = path.resolve(__dirname, '..');

const infrastructure = (
  name: ComponentName,
  command: string,
  args: string[],
  what: string,
  ready: (managed: ManagedProcess) => Promise<boolean>,
  extras: Partial<ProcessSpec<ComponentName>> = {},
): ProcessSpec<ComponentName> => ({
  name,
  command,
  args: () => args,
  what,
  timeoutMs: READY_TIMEOUT_MS.infrastructure,
  ready,
  ...extras,
});

const postgres: Component = {
  name: 'postgres',
  runs: (ctx) => ctx.runs.postgres,
  needs: [],
  ports: ({ config }) => [[config.POSTGRES_PORT, 'POSTGRES_PORT']],
  async prepare({ config }) {
    const engine = await ensurePostgres(config);
    return {
      spec: infrastructure('postgres', engine.binary, engine.args, 'PostgreSQL', engine.ready, {
        ...(engine.user && { user: engine.user }),
        stopSignal: 'SIGINT',
      }),
      started: engine.afterStart,
      banner: `postgres   127.0.0.1:${config.POSTGRES_PORT} (PostgreSQL ${engine.version}, data in ${engine.dataDir}; Temporal's and FerretDB's databases)`,
    };
  },
};

/** The production shape's Temporal: the server on PostgreSQL, its Web UI a process of its own. */
const temporalServer: Component = {
  name: 'temporal',
  runs: (ctx) => ctx.runs.temporal && ctx.production,
  needs: ['postgres'],
  ports: ({ config }) => [
    ...Array.from({ length: TEMPORAL_INTERNAL_PORT_COUNT }, (_, offset): [number, string] => [
      config.TEMPORAL_INTERNAL_PORT + offset,
      `TEMPORAL_INTERNAL_PORT${offset === 0 ? '' : ` + ${offset}`}`,
    ]),
    [config.TEMPORAL_PORT, 'TEMPORAL_PORT'],
  ],
  async prepare(ctx) {
    const { config, urls } = ctx;
    const server = await ctx.temporalServer();
    return {
      spec: infrastructure('temporal', server.binary, server.args, 'the Temporal server', server.ready),
      banner:
        `temporal   ${urls.temporal} (Temporal server ${server.version} on PostgreSQL, ${config.TEMPORAL_HISTORY_SHARDS} history shards, ` +
        `advanced visibility on PostgreSQL; Web UI ${urls.temporalUi})`,
    };
  },
};

const temporalUi: Component = {
  name: 'temporal-ui',
  runs: (ctx) => ctx.runs.temporal && ctx.production,
  needs: ['temporal'],
  ports: ({ config }) => [[config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT']],
  async prepare(ctx) {
    const { ui } = await ctx.temporalServer();
    const { urls } = ctx;
    return {
      spec: infrastructure('temporal-ui', ui.binary, ui.args, 'the Temporal Web UI', () => httpOk(urls.temporalUi!)),
    };
  },
};

/** The embedded shape's Temporal: the CLI's dev server on SQLite, its Web UI inside. */
const temporalDevServer: Component = {
  name: 'temporal',
  runs: (ctx) => ctx.runs.temporal && !ctx.production,
  needs: [],
  ports: ({ config }) => [
    [config.TEMPORAL_PORT, 'TEMPORAL_PORT'],
    [config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT'],
  ],
  async prepare({ config, log, urls }) {
    const binary = await ensureTool(config.TOOLS_DIR, TEMPORAL_CLI, log);
    const stateDir = path.join(config.DATA_DIR, 'temporal');
    await mkdir(stateDir, { recursive: true });
    const args = [
      ...['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(config.TEMPORAL_PORT)],
      ...['--ui-port', String(config.TEMPORAL_UI_PORT), '--db-filename', path.join(stateDir, 'temporal.db')],
      // Write-ahead log, synced at checkpoints: survives a crash of any process, not a power loss (see docs/operations.md, Durability).
      ...['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'],
      ...['--namespace', config.TEMPORAL_NAMESPACE, '--log-level', 'warn'],
      ...devServerDynamicConfigArgs(),
      ...Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
    ];
    const ready = async () => {
      const client = connectTemporalClient(urls.temporal);
      try {
        return (await pingTemporal(client, 1_000)) && (await httpOk(urls.temporalUi!));
      } finally {
        await client.close();
      }
    };
    return {
      spec: infrastructure('temporal', binary, args, 'the Temporal dev server', ready),
      banner: `temporal   ${urls.temporal} (state in ${stateDir}; Web UI ${urls.temporalUi})`,
    };
  },
};

const ferretdb: Component = {
  name: 'ferretdb',
  runs: (ctx) => ctx.runs.ferretdb,
  needs: ['postgres'],
  ports: ({ config }) => [[config.FERRETDB_PORT, 'FERRETDB_PORT']],
  async prepare({ config, log, production, urls }) {
    const binary = await ensureTool(config.TOOLS_DIR, FERRETDB, log);
    const dbDir = path.join(config.DATA_DIR, 'ferretdb');
    await mkdir(path.join(dbDir, 'state'), { recursive: true });
    await mkdir(path.join(dbDir, 'sqlite'), { recursive: true });
    const { database } = POSTGRES_DATABASES.ferretdb;
    const backend = production
      ? {
          handler: 'postgresql' as const,
          url: postgresUrl(config.POSTGRES_PORT, POSTGRES_DATABASES.ferretdb, database),
        }
      : { handler: 'sqlite' as const };
    const ready = async () => {
      if (!(await canConnect(config.FERRETDB_PORT))) return false;
      const db = await connectDatabase(urls.mongodb).catch(() => undefined);
      try {
        return db !== undefined && (await pingDatabase(db));
      } finally {
        await db?.close();
      }
    };
    return {
      // Without the failed responses every start and every closed connection makes as a matter of course.
      spec: infrastructure('ferretdb', binary, ferretdbArgs(dbDir, config.FERRETDB_PORT, backend), 'FerretDB', ready, {
        logFilter: ferretdbLogFilter(),
      }),
      banner: `mongodb    ${urls.mongodb} (FerretDB on ${production ? `PostgreSQL, database ${database}` : `SQLite in ${dbDir}`})`,
    };
  },
};

const mail: Component = {
  name: 'mail',
  runs: (ctx) => ctx.runs.mail,
  needs: [],
  ports: ({ config }) => [
    [config.SMTP_PORT, 'SMTP_PORT'],
    [config.MAIL_UI_PORT, 'MAIL_UI_PORT'],
  ],
  async prepare({ config, urls }) {
    const mailDir = path.join(config.DATA_DIR, 'mail');
    await mkdir(mailDir, { recursive: true });
    const args = [
      require.resolve('maildev/bin/maildev'),
      ...['--ip', '127.0.0.1', '--smtp', String(config.SMTP_PORT), '--web', String(config.MAIL_UI_PORT)],
      ...['--mail-directory', mailDir],
    ];
    const ready = async () => (await canConnect(config.SMTP_PORT)) && httpOk(urls.inbox!);
    return {
      spec: infrastructure('mail', process.execPath, args, 'the mail sink', ready),
      banner: `smtp       ${urls.smtp} (inbox ${urls.inbox})`,
    };
  },
};

const validator: Component = {
  name: 'validator',
  runs: (ctx) => ctx.runs.validator,
  needs: [],
  ports: ({ config }) => [[config.VALIDATOR_PORT, 'VALIDATOR_PORT']],
  async prepare({ config, log, urls }) {
    const jar = await ensureTool(config.TOOLS_DIR, PEPPOL_VALIDATOR, log);
    const args = [
      ...[VALIDATOR_HEAP, '-jar', jar, '--host', '127.0.0.1', '--port', String(config.VALIDATOR_PORT)],
      ...['--lane-permits', config.VALIDATOR_LANE_PERMITS, '--recycle-after', String(config.VALIDATOR_RECYCLE_AFTER)],
      ...['--worker-heap', config.VALIDATOR_WORKER_HEAP],
    ];
    return {
      spec: {
        ...infrastructure('validator', 'java', args, 'the official validator', () =>
          httpOk(`${urls.validator}/health`),
        ),
        timeoutMs: READY_TIMEOUT_MS.validator,
      },
      banner: `validator  ${urls.validator} (official Peppol BIS Billing 3.0 rules, ${PEPPOL_VALIDATOR.name} ${PEPPOL_VALIDATOR.version})`,
    };
  },
};

/** An access point of our program (phase4): ours, or the stand-in network's receiving one. */
async function accessPointSpec(
  ctx: StackContext,
  name: 'peppol-receiver' | 'access-point',
  env: Record<string, string>,
  what: string,
  tracing?: AccessPointTracing,
): Promise<ProcessSpec<ComponentName>> {
  const jar = await ensureTool(ctx.config.TOOLS_DIR, PEPPOL_ACCESS_POINT, ctx.log);
  const [role, url] =
    name === 'access-point' ? ['sender', ctx.urls.accessPoint] : ['receiver', ctx.urls.peppol!.receivingAccessPoint];
  const args = [ACCESS_POINT_HEAP, ...(tracing?.jvmArgs ?? []), '-jar', jar, role];
  return infrastructure(name, 'java', args, what, () => httpOk(`${url}/health`), { env: { ...env, ...tracing?.env } });
}

const peppolReceiver: Component = {
  name: 'peppol-receiver',
  runs: (ctx) => ctx.runs.peppolNetwork,
  needs: [],
  ports: ({ config }) => [[config.PEPPOL_RECEIVER_PORT, 'PEPPOL_RECEIVER_PORT']],
  async prepare(ctx) {
    const pki = await ctx.pki();
    const receiverDir = path.join(ctx.config.DATA_DIR, 'peppol-network');
    const env = accessPointEnvironment({
      port: ctx.config.PEPPOL_RECEIVER_PORT,
      keystore: pki.receiverKeystore,
      truststore: pki.truststore,
      dataDir: path.join(receiverDir, 'access-point'),
      inboxDir: path.join(receiverDir, 'inbox'),
      refusedReceivers: (await readParticipants())
        .filter((participant) => participant.refusedByAccessPoint)
        .map((participant) => participant.id),
    });
    const what = "the local Peppol network's receiving access point";
    const { receivingAccessPoint } = ctx.urls.peppol!;
    return {
      spec: await accessPointSpec(ctx, 'peppol-receiver', env, what),
      banner:
        `peppol     access point ${receivingAccessPoint}/as4 (what arrived: ${receivingAccessPoint}/inbox; ` +
        `what it sent: ${receivingAccessPoint}/sent)`,
    };
  },
};

/** The independent access point (Oxalis), for the participants it serves: another implementation than ours and the stand-in's. */
const oxalis: Component = {
  name: 'oxalis',
  runs: (ctx) => ctx.runs.peppolNetwork,
  needs: [],
  ports: ({ config }) => [[config.OXALIS_PORT, 'OXALIS_PORT']],
  async prepare({ config, log, pki, urls }) {
    const { ca, oxalisKeystore, truststoreJks } = await pki();
    const dirs = oxalisDirs(config.DATA_DIR);
    const server = oxalisServerCommand(
      await oxalisHome(await ensureTool(config.TOOLS_DIR, PEPPOL_OXALIS, log), dirs.server, {
        keystore: oxalisKeystore,
        trustedCas: [ca],
        truststore: truststoreJks,
        server: { port: config.OXALIS_PORT, inboundDir: dirs.inbound },
      }),
    );
    const what = "the local Peppol network's independent access point (Oxalis)";
    const ready = () => httpOk(`http://127.0.0.1:${config.OXALIS_PORT}/status`);
    return {
      spec: infrastructure('oxalis', 'java', server.args, what, ready, { env: server.env }),
      banner: `peppol     independent access point (Oxalis ${PEPPOL_OXALIS.version}) ${urls.peppol!.oxalis} (what arrived: ${dirs.inbound})`,
    };
  },
};

/** The stand-in's SML (DNS and its management interface), SMP, Directory and responder: stack/peppol-network/. */
const peppolNetwork: Component = {
  name: 'peppol-network',
  runs: (ctx) => ctx.runs.peppolNetwork,
  needs: ['peppol-receiver', 'oxalis'],
  ports: ({ config }) => [
    [config.STANDIN_SML_PORT, 'STANDIN_SML_PORT'],
    [config.STANDIN_SMP_PORT, 'STANDIN_SMP_PORT'],
  ],
  async prepare({ config, pki, urls }) {
    const peppol = urls.peppol!;
    const files = await pki();
    const receiverDir = path.join(config.DATA_DIR, 'peppol-network');
    const args = [
      ...['--import', 'tsx', path.join(projectRoot, 'stack/peppol-network/main.ts')],
      ...[
        '--zone',
        peppol.zone,
        '--dns-port',
        String(config.SML_DNS_PORT),
        '--smp-port',
        String(config.STANDIN_SMP_PORT),
      ],
      ...['--ap-url', `${peppol.receivingAccessPoint}/as4`, '--ap-certificate', files.receiverCertificate],
      ...['--oxalis-url', peppol.oxalis, '--oxalis-certificate', files.oxalisCertificate],
      ...['--smp-certificate', files.smpCertificate, '--smp-key', files.smpKey],
      ...['--sml-port', String(config.STANDIN_SML_PORT), '--sml-certificate', files.smlServerCertificate],
      ...['--sml-key', files.smlServerKey, '--ca', files.ca],
      ...['--sml-registrations', path.join(receiverDir, 'sml-registrations.json')],
      ...['--inbox', path.join(receiverDir, 'inbox'), '--ap-control', peppol.receivingAccessPoint],
      ...['--data-dir', config.DATA_DIR, '--respond', config.STANDIN_INVOICE_RESPONSE, '--seat', LOCAL_RECEIVER_SEAT],
    ];
    const ready = () => peppolNetworkReady(peppol.dnsServer, peppol.zone, peppol.smp);
    return {
      spec: infrastructure('peppol-network', process.execPath, args, 'the local Peppol network stand-in', ready),
      banner: `peppol     local stand-in: SML zone ${peppol.zone} on DNS ${peppol.dnsServer} (management ${peppol.sml}), SMP ${peppol.smp}`,
    };
  },
};

/** Our access point: it sends for the worker and receives into the API's intake; our SMP (in the API) publishes it. */
const accessPoint: Component = {
  name: 'access-point',
  runs: (ctx) => ctx.runs.accessPoint,
  needs: ['peppol-network'],
  ports: ({ config }) => [
    [config.ACCESS_POINT_PORT, 'ACCESS_POINT_PORT'],
    [config.ACCESS_POINT_AS4_PORT, 'ACCESS_POINT_AS4_PORT'],
  ],
  async prepare(ctx) {
    const { config, urls } = ctx;
    const pki = await ctx.pki();
    // In the traces of the API and worker when they are exported; the agent is fetched only then.
    const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT
      ? accessPointTracing(await ensureTool(config.TOOLS_DIR, OPENTELEMETRY_JAVA_AGENT, ctx.log))
      : undefined;
    const env = accessPointEnvironment({
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
        intakeToken: await ctx.inboundToken(),
      },
    });
    // Our SMP (in the API process) publishes our registered companies with this access point's endpoint.
    const started = () => {
      Object.assign(ctx.serviceEnv, {
        SMP_PORT: String(config.SMP_PORT),
        SMP_PUBLIC_URL: `http://127.0.0.1:${config.SMP_PORT}`,
        SMP_SIGNING_CERTIFICATE: pki.smpCertificate,
        SMP_SIGNING_KEY: pki.smpKey,
        ACCESS_POINT_ENDPOINT_URL: urls.accessPointAs4!,
        ACCESS_POINT_CERTIFICATE: pki.senderCertificate,
        // The seat of our access point's certificate in the local test PKI (TestPki.java).
        PEPPOL_SEAT_ID: LOCAL_SENDER_SEAT,
      });
      return Promise.resolve();
    };
    return {
      spec: await accessPointSpec(ctx, 'access-point', env, 'our access point', tracing),
      started,
      banner:
        `ap         ${urls.accessPoint} (our AS4 access point, ${PEPPOL_ACCESS_POINT.version}; receives at ${urls.accessPointAs4} into ` +
        `http://127.0.0.1:${config.INBOUND_PORT}/inbound; certificate from the local test PKI in ${pki.dir}` +
        `${tracing ? `; traced by ${OPENTELEMETRY_JAVA_AGENT.name} ${OPENTELEMETRY_JAVA_AGENT.version}` : ''})`,
    };
  },
};

/** Gives the services' environment the keys the API and worker hold, and nobody else (read once, however often asked). */
export async function withServiceKeys(ctx: StackContext): Promise<void> {
  Object.assign(ctx.serviceEnv, await ctx.serviceKeys());
}

/** Where the API processes listen: PORT, or behind the production shape's front proxy. */
const apiPortOf = ({ config, production }: StackContext) => (production ? config.API_BEHIND_FRONT_PORT : config.PORT);

/** The API or the worker, run from its source with tsx; `env` changes its environment from the services' one. */
export function serviceSpec(
  ctx: StackContext,
  name: ServiceName,
  env: Record<string, string> = {},
): ProcessSpec<ComponentName> {
  const { config, urls } = ctx;
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
      : async () =>
          (await fetch(`http://127.0.0.1:${apiPortOf(ctx)}/v1/health`).catch(() => undefined))?.status === 200;
  return {
    name,
    command: process.execPath,
    args: () => ['--import', 'tsx', entry],
    what: name === 'api' ? 'the API' : 'the worker',
    timeoutMs: READY_TIMEOUT_MS[name],
    ready,
    echo: (line) => ctx.echo?.(name, line),
    env: name === 'api' ? { PORT: String(apiPortOf(ctx)), ...env } : env,
  };
}

const processCount = (count: number) => `${count} process${count === 1 ? '' : 'es'}`;

const worker: Component = {
  name: 'worker',
  runs: (ctx) => ctx.runs.worker,
  needs: ['temporal', 'ferretdb', 'mail', 'validator', 'access-point'],
  ports: ({ config }) => [
    [config.WORKER_METRICS_PORT, 'WORKER_METRICS_PORT'],
    ...Array.from({ length: config.WORKER_PROCESSES }, (_, copy): [number, string] => [
      config.TEMPORAL_METRICS_PORT + copy,
      `TEMPORAL_METRICS_PORT${copy === 0 ? '' : ` + ${copy}`}`,
    ]),
  ],
  async prepare(ctx) {
    const { config, urls } = ctx;
    await withServiceKeys(ctx);
    ctx.serviceEnv.WORKFLOW_BUNDLE = await cachedWorkflowBundle();
    const queues = RESOURCE_NAMES.map((resource) => taskQueueOf(resource, TASK_QUEUE)).join(', ');
    return {
      spec: serviceSpec(ctx, 'worker'),
      banner:
        `worker     task queues ${queues} on ${urls.temporal} (${processCount(config.WORKER_PROCESSES)}; WORKER_PROCESSES)\n` +
        `metrics    worker ${urls.metrics.worker}, Temporal SDK ${urls.metrics.temporalWorker} (each further worker process on the next port)`,
    };
  },
};

/** The production shape's front proxy: one address (PORT) before the API's processes. */
const front: Component = {
  name: 'front',
  runs: (ctx) => ctx.runs.api && ctx.production,
  needs: [],
  ports: ({ config }) => [[config.PORT, 'PORT']],
  prepare: ({ config }) =>
    Promise.resolve({
      spec: infrastructure('front', process.execPath, frontProxyArgs(config), 'the front proxy', () =>
        canConnect(config.PORT),
      ),
    }),
};

const api: Component = {
  name: 'api',
  runs: (ctx) => ctx.runs.api,
  needs: ['temporal', 'ferretdb', 'mail', 'validator', 'access-point', 'front'],
  ports: (ctx) => [
    [apiPortOf(ctx), ctx.production ? 'API_BEHIND_FRONT_PORT' : 'PORT'],
    [ctx.config.INBOUND_PORT, 'INBOUND_PORT'],
    [ctx.config.METRICS_PORT, 'METRICS_PORT'],
    ...(ctx.runs.accessPoint ? [[ctx.config.SMP_PORT, 'SMP_PORT'] as [number, string]] : []),
  ],
  async prepare(ctx) {
    const { config, production, urls } = ctx;
    await withServiceKeys(ctx);
    if (await ensureWebAppBuilt()) ctx.log('web app    built into dist/app');
    const behind = production ? `; behind the front proxy, at 127.0.0.1:${config.API_BEHIND_FRONT_PORT}` : '';
    return {
      spec: serviceSpec(ctx, 'api'),
      banner:
        `api        ${urls.api} (${processCount(config.API_PROCESSES)}; API_PROCESSES${behind})\n` +
        `metrics    api ${urls.metrics.api}`,
    };
  },
};

/** The components in start order. */
export const COMPONENTS: readonly Component[] = [
  postgres,
  temporalServer,
  temporalUi,
  temporalDevServer,
  ferretdb,
  mail,
  validator,
  peppolReceiver,
  oxalis,
  peppolNetwork,
  accessPoint,
  worker,
  front,
  api,
];

/** What a stack's components share (keys, the PKI, the production shape's Temporal server), each made once however many ask. */
export function sharedMaterial(
  config: StackConfig,
  log: (line: string) => void,
): Pick<StackContext, 'pki' | 'inboundToken' | 'serviceKeys' | 'temporalServer'> {
  let pki: Promise<LocalPki> | undefined;
  let token: Promise<string> | undefined;
  let keys: ReturnType<StackContext['serviceKeys']> | undefined;
  let temporalServer: ReturnType<StackContext['temporalServer']> | undefined;
  const inboundToken = () =>
    (token ??= config.INBOUND_TOKEN
      ? Promise.resolve(config.INBOUND_TOKEN)
      : stackKey(config.KEYS_DIR, INBOUND_TOKEN_FILE));
  const readKeys = async () => ({
    INBOUND_TOKEN: await inboundToken(),
    WEBHOOK_SECRET_KEY: config.WEBHOOK_SECRET_KEY ?? (await webhookKey(config.DATA_DIR, config.KEYS_DIR)),
    KYC_ENCRYPTION_KEY: config.KYC_ENCRYPTION_KEY ?? (await stackKey(config.KEYS_DIR, KYC_KEY_FILE)),
  });
  return {
    pki: () =>
      (pki ??= ensureTool(config.TOOLS_DIR, PEPPOL_ACCESS_POINT, log).then((jar) =>
        ensureLocalPki(jar, path.join(config.DATA_DIR, 'peppol-pki')),
      )),
    // Our access point presents it and the API checks it; no other process gets it (the stand-in plays foreign parties).
    inboundToken,
    serviceKeys: () => (keys ??= readKeys()),
    temporalServer: () => (temporalServer ??= ensureTemporalServer(config, log)),
  };
}

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
