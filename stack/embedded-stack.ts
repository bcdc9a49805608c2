import { mkdir } from 'node:fs/promises';
import path from 'node:path';

import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { configToEnv, type Config } from '../platform/config';
import { connectDatabase, pingDatabase } from '../platform/database';
import { connectTemporalClient, pingTemporal } from '../platform/temporal';
import { SEARCH_ATTRIBUTE_TYPES, TASK_QUEUE } from '../workflows/shared';
import { acquireDataDirLock } from './data-dir-lock';
import { StackError } from './errors';
import { ManagedProcess } from './managed-process';
import { canConnect, isPortFree } from './ports';
import { ensureTool, FERRETDB, TEMPORAL_CLI } from './tools';

/**
 * The whole service on one machine from real components: the Temporal dev
 * server, FerretDB, a local SMTP sink with an inbox page, the worker and the
 * API. A component whose address is configured (TEMPORAL_ADDRESS, MONGODB_URI,
 * SMTP_URL) is used as it is and not started.
 */

export type ServiceName = 'api' | 'worker';

export interface StackOptions {
  config: Config;
  /** Which of the project's own processes to run (both by default). */
  services?: ServiceName[];
  /** Progress lines for a person watching. */
  log?: (line: string) => void;
  /** Where the API's and worker's output goes besides their log files. */
  echo?: (service: ServiceName, line: string) => void;
}

export interface StackUrls {
  api?: string;
  mongodb: string;
  temporal: string;
  temporalUi?: string;
  smtp: string;
  inbox?: string;
}

export interface EmbeddedStack {
  urls: StackUrls;
  /** Environment the API and worker run with (all variables, addresses filled in). */
  serviceEnv: NodeJS.ProcessEnv;
  process(name: string): ManagedProcess | undefined;
  /** Starts (or starts again) the API or the worker and waits until it is ready. */
  startService(name: ServiceName): Promise<void>;
  stop(): Promise<void>;
}

const projectRoot = path.resolve(__dirname, '..');
const READY_TIMEOUT_MS = { infrastructure: 60_000, worker: 180_000, api: 60_000 };

export async function startStack(options: StackOptions): Promise<EmbeddedStack> {
  const { config } = options;
  const log = options.log ?? (() => undefined);
  const services = options.services ?? ['worker', 'api'];
  const runs = {
    temporal: !config.TEMPORAL_ADDRESS,
    ferretdb: !config.MONGODB_URI,
    mail: !config.SMTP_URL,
  };

  const logsDir = path.join(config.DATA_DIR, 'logs');
  await mkdir(logsDir, { recursive: true });
  const lock = await acquireDataDirLock(config.DATA_DIR);
  const processes = new Map<string, ManagedProcess>();

  const urls: StackUrls = {
    mongodb: config.MONGODB_URI ?? `mongodb://127.0.0.1:${config.FERRETDB_PORT}/einvoice`,
    temporal: config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`,
    smtp: config.SMTP_URL ?? `smtp://127.0.0.1:${config.SMTP_PORT}`,
    ...(runs.temporal && { temporalUi: `http://127.0.0.1:${config.TEMPORAL_UI_PORT}` }),
    ...(runs.mail && { inbox: `http://127.0.0.1:${config.MAIL_UI_PORT}` }),
    ...(services.includes('api') && { api: `http://127.0.0.1:${config.PORT}` }),
  };
  const serviceEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...configToEnv(config),
    MONGODB_URI: urls.mongodb,
    TEMPORAL_ADDRESS: urls.temporal,
    SMTP_URL: urls.smtp,
  };

  const spawnProcess = (name: string, command: string, args: string[], echo?: (line: string) => void) => {
    const managed = new ManagedProcess(name, command, args, {
      env: serviceEnv,
      logFile: path.join(logsDir, `${name}.log`),
      ...(echo && { echo }),
    });
    processes.set(name, managed);
    managed.start();
    return managed;
  };

  const whenReady = async (managed: ManagedProcess, what: string, timeoutMs: number, ready: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!managed.running) {
        throw new StackError(`${what} exited during start-up. Its last output:\n${managed.tail()}`);
      }
      if (await ready()) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new StackError(`${what} was not ready after ${timeoutMs / 1000} s. Its last output:\n${managed.tail()}`);
  };

  const stop = async () => {
    // Reverse start order: the API and worker drain before the services they use go away.
    for (const managed of [...processes.values()].reverse()) await managed.stop();
    await lock.release();
  };

  const startService = async (name: ServiceName) => {
    await processes.get(name)?.stop();
    const entry = path.join(projectRoot, name === 'api' ? 'api/server.ts' : 'worker/main.ts');
    const managed = spawnProcess(name, process.execPath, ['--import', 'tsx', entry], (line) => options.echo?.(name, line));
    if (name === 'worker') {
      // Ready means polling: the new process's identity (pid@host) is among the task queue's pollers.
      const client = connectTemporalClient(urls.temporal);
      try {
        await whenReady(managed, 'the worker', READY_TIMEOUT_MS.worker, () =>
          isPolling(client, config.TEMPORAL_NAMESPACE, managed.pid!),
        );
      } finally {
        await client.close();
      }
    } else {
      await whenReady(managed, 'the API', READY_TIMEOUT_MS.api, async () => {
        const response = await fetch(`${urls.api}/v1/health`).catch(() => undefined);
        return response?.status === 200;
      });
    }
  };

  try {
    await checkPortsFree(config, runs, services);
    if (runs.temporal) {
      const temporalBinary = await ensureTool(config.TOOLS_DIR, TEMPORAL_CLI, log);
      await mkdir(path.join(config.DATA_DIR, 'temporal'), { recursive: true });
      const managed = spawnProcess('temporal', temporalBinary, [
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
        '--namespace',
        config.TEMPORAL_NAMESPACE,
        '--log-level',
        'warn',
        ...Object.entries(SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`]),
      ]);
      const client = connectTemporalClient(urls.temporal);
      try {
        await whenReady(managed, 'the Temporal dev server', READY_TIMEOUT_MS.infrastructure, () => pingTemporal(client, 1_000));
      } finally {
        await client.close();
      }
      await whenReady(managed, 'the Temporal Web UI', READY_TIMEOUT_MS.infrastructure, () => httpOk(urls.temporalUi!));
      log(`temporal   ${urls.temporal} (state in ${path.join(config.DATA_DIR, 'temporal')})`);
    }
    if (runs.ferretdb) {
      const ferretdbBinary = await ensureTool(config.TOOLS_DIR, FERRETDB, log);
      const dbDir = path.join(config.DATA_DIR, 'ferretdb');
      await mkdir(path.join(dbDir, 'state'), { recursive: true });
      await mkdir(path.join(dbDir, 'sqlite'), { recursive: true });
      const managed = spawnProcess('ferretdb', ferretdbBinary, [
        '--handler=sqlite',
        // Writers queue for the lock at BEGIN (busy_timeout applies) instead of failing with SQLITE_BUSY
        // when a read transaction has to be upgraded under contention.
        `--sqlite-url=file:${path.join(dbDir, 'sqlite')}/?_txlock=immediate`,
        `--state-dir=${path.join(dbDir, 'state')}`,
        `--listen-addr=127.0.0.1:${config.FERRETDB_PORT}`,
        '--telemetry=disable',
        '--debug-addr=-',
        '--log-level=warn',
        '--log-format=json',
      ]);
      await whenReady(managed, 'FerretDB', READY_TIMEOUT_MS.infrastructure, () => canConnect(config.FERRETDB_PORT));
      const db = await connectDatabase(urls.mongodb);
      try {
        await whenReady(managed, 'FerretDB', READY_TIMEOUT_MS.infrastructure, () => pingDatabase(db));
      } finally {
        await db.close();
      }
      log(`mongodb    ${urls.mongodb} (FerretDB on SQLite in ${dbDir})`);
    }
    if (runs.mail) {
      const mailDir = path.join(config.DATA_DIR, 'mail');
      await mkdir(mailDir, { recursive: true });
      const managed = spawnProcess('mail', process.execPath, [
        require.resolve('maildev/bin/maildev'),
        '--ip',
        '127.0.0.1',
        '--smtp',
        String(config.SMTP_PORT),
        '--web',
        String(config.MAIL_UI_PORT),
        '--mail-directory',
        mailDir,
      ]);
      await whenReady(managed, 'the mail sink', READY_TIMEOUT_MS.infrastructure, async () => (await canConnect(config.SMTP_PORT)) && httpOk(urls.inbox!));
      log(`smtp       ${urls.smtp}`);
    }
    for (const service of (['worker', 'api'] as const).filter((name) => services.includes(name))) {
      await startService(service);
      log(`${service === 'api' ? 'api     ' : 'worker  '}   ${service === 'api' ? urls.api! : `task queue on ${urls.temporal}`}`);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return { urls, serviceEnv, process: (name) => processes.get(name), startService, stop };
}

async function checkPortsFree(config: Config, runs: Record<'temporal' | 'ferretdb' | 'mail', boolean>, services: ServiceName[]) {
  const wanted: [boolean, number, string][] = [
    [runs.temporal, config.TEMPORAL_PORT, 'TEMPORAL_PORT'],
    [runs.temporal, config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT'],
    [runs.ferretdb, config.FERRETDB_PORT, 'FERRETDB_PORT'],
    [runs.mail, config.SMTP_PORT, 'SMTP_PORT'],
    [runs.mail, config.MAIL_UI_PORT, 'MAIL_UI_PORT'],
    [services.includes('api'), config.PORT, 'PORT'],
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

async function httpOk(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
  return response?.ok === true;
}

async function isPolling(client: Connection, namespace: string, pid: number): Promise<boolean> {
  const { pollers } = await client.workflowService
    .describeTaskQueue({
      namespace,
      taskQueue: { name: TASK_QUEUE },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    })
    .catch(() => ({ pollers: [] }));
  return (pollers ?? []).some((poller) => poller.identity?.startsWith(`${pid}@`));
}

