import mongoose, { type Connection } from 'mongoose';

import type { Logger } from './logger';

/**
 * One mongoose connection per process. Server selection is kept short so a
 * database outage shows up in the health check within seconds instead of
 * hanging requests for the driver's default 30 s, and the driver checks the
 * server every 2 s (not its default 10 s), so it finds a restarted database
 * as soon as it listens.
 */
export async function connectDatabase(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: 5_000,
    heartbeatFrequencyMS: 2_000,
    // Retryable writes need a replica set (FerretDB has none): off unless the connection string turns them on,
    // as a replica set's does (a write cut by a primary's election is sent again to the new one).
    ...(!/[?&]retryWrites=/i.test(uri) && { retryWrites: false }),
  });
  await connection.asPromise();
  return connection;
}

export async function pingDatabase(connection: Connection, timeoutMs = 2_000): Promise<boolean> {
  const db = connection.db;
  if (!db || connection.readyState !== mongoose.ConnectionStates.connected) return false;
  try {
    await withTimeout(db.command({ ping: 1 }), timeoutMs);
    return true;
  } catch {
    return false;
  }
}

/** The driver's and mongoose's ways of saying the database cannot be reached now (as opposed to refusing a request). */
const UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
]);

/**
 * MongoDB's answers for "not now" from a server that is up: shutting down, stepped down or not primary in an
 * election, interrupted, or unable to reach another member (the driver's own list of retryable codes).
 */
const SERVER_NOT_NOW = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * FerretDB answers InternalError (1) when its PostgreSQL cannot be reached or is restarting, with the PostgreSQL
 * driver's text: a failed connection, or a connection-exception or shutdown SQLSTATE (classes 08 and 57P). The
 * production shape saw it: PostgreSQL killed under load, and every request then was a 500.
 */
const BACKEND_AWAY = /failed to connect to `|\(SQLSTATE (08\w{3}|57P0[1-3])\)|conn closed|unexpected EOF/;

/** Whether `err` says the database is away (a request may succeed a few seconds later), not that the request was wrong. */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (UNREACHABLE.has(err.name)) return true;
  if (err.name === 'MongoServerError') {
    const { code } = err as Error & { code?: unknown };
    if (typeof code === 'number' && SERVER_NOT_NOW.has(code)) return true;
    if (code === 1 && BACKEND_AWAY.test(err.message)) return true;
  }
  // The driver lets a write to a socket the database closed escape unwrapped (Node's EPIPE, ECONNRESET): its own frames tell.
  const { code } = err as NodeJS.ErrnoException;
  if ((code === 'EPIPE' || code === 'ECONNRESET') && /[\\/]node_modules[\\/]mongodb[\\/]/.test(err.stack ?? ''))
    return true;
  // Mongoose holds operations while its connection is down, then gives up with this.
  return err.name === 'MongooseError' && /buffering timed out/.test(err.message);
}

export interface DatabaseWatch {
  stop(): void;
}

/**
 * Watches the process's connection: when it has failed its pings for `stuckAfterMs` while a fresh connection
 * to the same database succeeds, the driver is not coming back by itself (a fault campaign saw an API process
 * hold no socket at all for minutes after the database restarted), and `onStuck` ends the process so that its
 * supervisor starts a new one. While the database itself is away, nothing is done: the driver reconnects.
 */
export function watchDatabase(
  connection: Connection,
  uri: string,
  logger: Logger,
  onStuck: () => void,
  options: { everyMs?: number; stuckAfterMs?: number } = {},
): DatabaseWatch {
  const everyMs = options.everyMs ?? 2_000;
  const stuckAfterMs = options.stuckAfterMs ?? 15_000;
  let failingSince: number | undefined;
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      if (await pingDatabase(connection)) {
        if (failingSince !== undefined)
          logger.info({ downForMs: Date.now() - failingSince }, 'the database answers again');
        failingSince = undefined;
        return;
      }
      failingSince ??= Date.now();
      if (Date.now() - failingSince < stuckAfterMs || !(await freshConnectionAnswers(uri))) return;
      logger.error(
        { failingForMs: Date.now() - failingSince },
        'the database answers a fresh connection but not this process’s: exiting, for the supervisor to start a new process',
      );
      onStuck();
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

async function freshConnectionAnswers(uri: string): Promise<boolean> {
  const client = new mongoose.mongo.MongoClient(uri, { serverSelectionTimeoutMS: 2_000, connectTimeoutMS: 2_000 });
  try {
    await withTimeout(client.db().command({ ping: 1 }), 3_000);
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
