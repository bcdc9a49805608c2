import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import {
  COMPONENTS,
  sharedMaterial,
  serviceSpec,
  withServiceKeys,
  type ComponentName,
  type Runs,
  type ServiceName,
  type StackContext,
  type StackUrls,
} from './components';
import { serviceEnvironment, type StackConfig } from './config';
import { acquireDataDirLock } from './data-dir-lock';
import { StackError } from './errors';
import type { ManagedProcess } from './managed-process';
import { LOCAL_SML_ZONE } from './peppol-network/dns-server';
import { localPkiFiles } from './peppol-access-points';
import { isPortFree } from './ports';
import { createFilesPrivately, privateDirectory } from './private-files';
import { Supervisor } from './supervisor';

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
 * The components and their order are the table in stack/components.ts; the
 * supervisor (stack/supervisor.ts) starts them and restarts one that exits
 * unexpectedly, after a backoff, until it crashes too often.
 */

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

export async function startStack(options: StackOptions): Promise<EmbeddedStack> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const runs = runsOf(config, options.services ?? ['worker', 'api']);
  const urls = urlsOf(config, runs);
  const ctx: StackContext = {
    config,
    production: config.STACK_SHAPE === 'production',
    runs,
    urls,
    serviceEnv: serviceEnvOf(config, urls),
    log,
    ...(options.echo && { echo: options.echo }),
    ...sharedMaterial(config, log),
  };
  const components = COMPONENTS.filter((component) => component.runs(ctx));
  requireStartOrder(components.map(({ name, needs }) => ({ name, needs })));

  createFilesPrivately();
  await privateDirectory(config.DATA_DIR);
  const logsDir = path.join(config.DATA_DIR, 'logs');
  await mkdir(logsDir, { recursive: true });
  const lock = await acquireDataDirLock(config.DATA_DIR);
  const supervisor = new Supervisor<ComponentName>({
    logsDir,
    env: ctx.serviceEnv,
    log,
    ...(options.signal && { signal: options.signal }),
    ...(options.onGiveUp && { onGiveUp: options.onGiveUp }),
  });
  const stop = async () => {
    await supervisor.stopAll();
    await lock.release();
  };

  try {
    await checkPortsFree(components.flatMap((component) => component.ports(ctx)));
    for (const component of components) {
      if (options.signal?.aborted) throw new StackError(`stopped before starting ${component.name}`);
      const prepared = await component.prepare(ctx);
      await supervisor.start(prepared.spec);
      await prepared.started?.();
      if (prepared.banner) for (const line of prepared.banner.split('\n')) log(line);
    }
    // Also when neither service runs here: whoever starts one later from serviceEnv needs them.
    await withServiceKeys(ctx);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    urls,
    serviceEnv: ctx.serviceEnv,
    process: (name) => supervisor.process(name),
    async startService(name, env) {
      if (supervisor.process(name) && !env) return supervisor.startAgain(name);
      // A changed environment needs a process of its own (a managed process keeps the one it was made with).
      await supervisor.forget(name);
      await supervisor.start(serviceSpec(ctx, name, env));
    },
    restarted: (name) => supervisor.restarted(name),
    stop,
  };
}

/** A configured address means "use that one": the stack runs only what has none. */
function runsOf(config: StackConfig, services: ServiceName[]): Runs {
  const production = config.STACK_SHAPE === 'production';
  const runs = {
    temporal: !config.TEMPORAL_ADDRESS,
    ferretdb: !config.MONGODB_URI,
    mail: !config.SMTP_URL,
    validator: !config.VALIDATOR_URL,
    accessPoint: !config.ACCESS_POINT_URL,
    // A configured PEPPOL_DNS_SERVER means a real (or another) SML: the Peppol network stand-in is not started.
    peppolNetwork: !config.PEPPOL_DNS_SERVER,
    api: services.includes('api'),
    worker: services.includes('worker'),
  };
  return { ...runs, postgres: production && (runs.temporal || runs.ferretdb) };
}

function urlsOf(config: StackConfig, runs: Runs): StackUrls {
  return {
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
    ...(runs.api && { api: `http://127.0.0.1:${config.PORT}` }),
    metrics: {
      ...(runs.api && { api: `http://127.0.0.1:${config.METRICS_PORT}/metrics` }),
      ...(runs.worker && {
        worker: `http://127.0.0.1:${config.WORKER_METRICS_PORT}/metrics`,
        temporalWorker: `http://127.0.0.1:${config.TEMPORAL_METRICS_PORT}/metrics`,
      }),
    },
  };
}

/** The services' environment: the configuration with every address filled in, and none of the keys yet. */
function serviceEnvOf(config: StackConfig, urls: StackUrls): NodeJS.ProcessEnv {
  // The intake token goes to our access point and, once the others have started, to the API and worker only.
  // Our SMP is served only beside the access point the stack runs (its settings are added there), never with ACCESS_POINT_URL's.
  const {
    INBOUND_TOKEN: _heldBack,
    SMP_PORT: _servedWithOurAccessPoint,
    ...inherited
  } = { ...process.env, ...serviceEnvironment(config) };
  return {
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
}

/**
 * The table's order must start what a component needs before it, wherever both run.
 * @internal
 */
export function requireStartOrder(components: { name: ComponentName; needs: ComponentName[] }[]): void {
  const names = components.map((component) => component.name);
  for (const [index, component] of components.entries()) {
    const late = component.needs.filter((need) => names.indexOf(need) > index);
    if (late.length) throw new StackError(`${component.name} needs ${late.join(', ')} started before it`);
  }
}

async function checkPortsFree(wanted: [number, string][]): Promise<void> {
  const busy: string[] = [];
  for (const [port, variable] of wanted) {
    if (!(await isPortFree(port))) busy.push(`${variable}=${port}`);
  }
  if (busy.length > 0) {
    throw new StackError(
      `port already in use: ${busy.join(', ')}. Another stack (or another program) is running; stop it, or choose other ports with these variables.`,
    );
  }
}
