import { Connection } from '@temporalio/client';

/** Lazy so the API starts (and reports `degraded`) while Temporal is still coming up. */
export function connectTemporalClient(address: string): Connection {
  return Connection.lazy({ address });
}

export async function pingTemporal(connection: Connection, timeoutMs = 2_000): Promise<boolean> {
  try {
    await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
    return true;
  } catch {
    return false;
  }
}
