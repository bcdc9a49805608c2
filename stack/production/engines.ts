import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { connectTemporalClient, pingTemporal } from '../../platform/temporal';
import { ensureSearchAttributes } from '../../worker/temporal-setup';
import type { StackConfig } from '../config';
import { ensureTool, TEMPORAL_SERVER, TEMPORAL_SQL_TOOL_FILE, TEMPORAL_UI } from '../tools';
import {
  ensureCluster,
  ensureRoles,
  postgresArgs,
  postgresBinary,
  postgresReady,
  postgresUser,
  type PostgresUser,
} from './postgres';
import {
  ensureNamespace,
  setUpTemporalSchemas,
  temporalServerCommandLine,
  temporalUiCommandLine,
} from './temporal-server';

/** How the embedded stack starts one of the production shape's engines and knows it is ready. */
interface Engine {
  binary: string;
  args: string[];
  ready: () => Promise<boolean>;
}

/** PostgreSQL: its cluster made on the first start; after each start, the roles and FerretDB's database. */
export async function ensurePostgres(
  config: StackConfig,
): Promise<
  Engine & { user: PostgresUser | undefined; dataDir: string; version: string; afterStart: () => Promise<void> }
> {
  const home = path.join(config.DATA_DIR, 'postgres');
  const dataDir = path.join(home, 'data');
  const user = await postgresUser();
  await ensureCluster(dataDir, user, [config.DATA_DIR, home]);
  return {
    binary: postgresBinary(),
    args: postgresArgs(dataDir, config.POSTGRES_PORT),
    user,
    dataDir,
    version: (await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).trim(),
    ready: () => postgresReady(config.POSTGRES_PORT),
    afterStart: () => ensureRoles(config.POSTGRES_PORT),
  };
}

/**
 * The Temporal server: built once per machine, its schemas brought up to its release before it starts, and
 * ready once it serves the namespace with the project's search attributes (registered as an operator would,
 * through its API); then the Web UI, pointed at it.
 */
export async function ensureTemporalServer(
  config: StackConfig,
  log: (line: string) => void,
): Promise<Engine & { version: string; ui: Omit<Engine, 'ready'> }> {
  const binary = await ensureTool(config.TOOLS_DIR, TEMPORAL_SERVER, log);
  const uiBinary = await ensureTool(config.TOOLS_DIR, TEMPORAL_UI, log);
  await setUpTemporalSchemas(path.join(path.dirname(binary), TEMPORAL_SQL_TOOL_FILE), config.POSTGRES_PORT);
  const dir = path.join(config.DATA_DIR, 'temporal-server');
  const address = `127.0.0.1:${config.TEMPORAL_PORT}`;
  return {
    binary,
    version: TEMPORAL_SERVER.version,
    args: await temporalServerCommandLine(dir, {
      frontendPort: config.TEMPORAL_PORT,
      internalPort: config.TEMPORAL_INTERNAL_PORT,
      postgresPort: config.POSTGRES_PORT,
      historyShards: config.TEMPORAL_HISTORY_SHARDS,
    }),
    ready: async () => {
      const client = connectTemporalClient(address);
      try {
        if (!(await pingTemporal(client, 1_000))) return false;
        await ensureNamespace(client, config.TEMPORAL_NAMESPACE);
        await ensureSearchAttributes(client, config.TEMPORAL_NAMESPACE);
        return true;
      } finally {
        await client.close();
      }
    },
    ui: {
      binary: uiBinary,
      args: await temporalUiCommandLine(
        path.join(dir, 'ui'),
        config.TEMPORAL_UI_PORT,
        address,
        config.TEMPORAL_NAMESPACE,
      ),
    },
  };
}

/** The front proxy's command line: PORT in front of the API processes' port. */
export function frontProxyArgs(config: StackConfig): string[] {
  return [
    '--import',
    'tsx',
    path.join(__dirname, 'front-proxy.ts'),
    '--port',
    String(config.PORT),
    '--upstream',
    String(config.API_BEHIND_FRONT_PORT),
  ];
}
