import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import type { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { status as grpcStatus } from '@grpc/grpc-js';

import { StackError } from '../errors';
import { serverDynamicConfigFile } from '../temporal-dynamic-config';
import { databaseExists, POSTGRES_DATABASES } from './postgres';

/**
 * The Temporal server itself (go.temporal.io/server, the release the Temporal CLI embeds), as compose's
 * temporalio/auto-setup image runs it: history, matching, frontend and worker services in one process, its
 * state and its advanced visibility on PostgreSQL, schemas made and upgraded by its own SQL tool, the namespace
 * registered through its API.
 */

const run = promisify(execFile);

/** The ports of the server's services besides the frontend's gRPC port, from `TEMPORAL_INTERNAL_PORT` on. */
export const TEMPORAL_INTERNAL_PORT_COUNT = 8;

export interface TemporalServerSettings {
  /** The frontend's gRPC port, where clients connect (TEMPORAL_PORT). */
  frontendPort: number;
  /** The first of TEMPORAL_INTERNAL_PORT_COUNT consecutive ports for the other services and membership. */
  internalPort: number;
  postgresPort: number;
  historyShards: number;
}

/**
 * The server's configuration (YAML is a superset of JSON; the server reads this as its `production` environment).
 * @internal
 */
export function temporalServerConfig(
  settings: TemporalServerSettings,
  dynamicConfigFile: string,
): Record<string, unknown> {
  const { temporal } = POSTGRES_DATABASES;
  const datastore = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `127.0.0.1:${settings.postgresPort}`,
      connectProtocol: 'tcp',
      user: temporal.user,
      password: temporal.password,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const port = (offset: number) => settings.internalPort + offset;
  const service = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({
    rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra },
  });
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: settings.historyShards,
      datastores: {
        'postgres-default': datastore('temporal', 20),
        'postgres-visibility': datastore('temporal_visibility', 10),
      },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(settings.frontendPort, port(0), { httpPort: port(1) }),
      history: service(port(2), port(3)),
      matching: service(port(4), port(5)),
      worker: service(port(6), port(7)),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${settings.frontendPort}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: dynamicConfigFile, pollInterval: '60s' },
  };
}

/**
 * Writes the server's configuration under `dir` and returns its command line. The dynamic configuration makes a
 * search attribute usable as soon as it is added (as the dev server does), which the workers' start relies on.
 */
export async function temporalServerCommandLine(dir: string, settings: TemporalServerSettings): Promise<string[]> {
  const configDir = path.join(dir, 'config');
  await mkdir(configDir, { recursive: true });
  const dynamicConfigFile = path.join(configDir, 'dynamic.yaml');
  await writeFile(
    dynamicConfigFile,
    JSON.stringify(serverDynamicConfigFile({ 'system.forceSearchAttributesCacheRefreshOnRead': true }), null, 2),
  );
  await writeFile(
    path.join(configDir, 'production.yaml'),
    JSON.stringify(temporalServerConfig(settings, dynamicConfigFile), null, 2),
  );
  return ['--root', dir, '--config', 'config', '--env', 'production', '--allow-no-auth', 'start'];
}

/**
 * Temporal's databases with their schemas at this release, as an operator sets them up: the SQL tool makes each
 * database once and brings its schema up to the newest version on every start (nothing to do when it is).
 */
export async function setUpTemporalSchemas(sqlTool: string, postgresPort: number): Promise<void> {
  const { temporal } = POSTGRES_DATABASES;
  const schemas = { temporal: 'postgresql/v12/temporal', temporal_visibility: 'postgresql/v12/visibility' } as const;
  for (const database of temporal.databases) {
    const tool = (...args: string[]) =>
      run(sqlTool, [
        '--plugin',
        'postgres12',
        '--ep',
        '127.0.0.1',
        '--port',
        String(postgresPort),
        '--user',
        temporal.user,
        '--password',
        temporal.password,
        '--db',
        database,
        ...args,
      ]).catch((err: { stderr?: string; message: string }) => {
        throw new StackError(`temporal-sql-tool ${args[0]} on ${database} failed: ${err.stderr || err.message}`);
      });
    if (!(await databaseExists(postgresPort, database))) {
      await tool('create-database');
      await tool('setup-schema', '-v', '0.0');
    }
    await tool('update-schema', '--schema-name', schemas[database]);
  }
}

/** How long a closed workflow's history stays (compose's auto-setup default). */
const RETENTION = '24h';

/**
 * Registers the namespace (what auto-setup does in compose) and waits until the frontend serves it: a new
 * namespace reaches the frontend's cache within seconds, not at once.
 */
export async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(RETENTION),
    });
  } catch (err) {
    if ((err as { code?: number }).code !== grpcStatus.ALREADY_EXISTS) throw err;
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await connection.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new StackError(
          `the Temporal server did not serve namespace ${namespace} within 60 s: ${(err as Error).message}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** The Web UI's configuration (ui-server), pointed at the server. */
export async function temporalUiCommandLine(
  dir: string,
  uiPort: number,
  frontendAddress: string,
  namespace: string,
): Promise<string[]> {
  const configDir = path.join(dir, 'config');
  await mkdir(configDir, { recursive: true });
  const config = {
    temporalGrpcAddress: frontendAddress,
    host: '127.0.0.1',
    port: uiPort,
    enableUi: true,
    defaultNamespace: namespace,
    cors: { allowOrigins: [`http://127.0.0.1:${uiPort}`] },
  };
  await writeFile(path.join(configDir, 'production.yaml'), JSON.stringify(config, null, 2));
  return ['--root', dir, '--config', 'config', '--env', 'production', 'start'];
}
