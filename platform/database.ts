import mongoose, { type Connection } from 'mongoose';

/**
 * One mongoose connection per process. Server selection is kept short so a
 * database outage shows up in the health check within seconds instead of
 * hanging requests for the driver's default 30 s.
 */
export async function connectDatabase(uri: string): Promise<Connection> {
  const connection = mongoose.createConnection(uri, {
    serverSelectionTimeoutMS: 5_000,
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
