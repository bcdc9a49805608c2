import path from 'node:path';

/** Where FerretDB keeps documents: SQLite files under its directory (the embedded default), or a PostgreSQL. */
export type FerretdbBackend = { handler: 'sqlite' } | { handler: 'postgresql'; url: string };

/**
 * FerretDB's command line: its state (and SQLite files) under `dir`, listening
 * on loopback only. Create `dir/state` (and `dir/sqlite`) before starting it.
 */
export function ferretdbArgs(dir: string, port: number, backend: FerretdbBackend): string[] {
  const storage =
    backend.handler === 'sqlite'
      ? [
          '--handler=sqlite',
          // Writers queue for the lock at BEGIN (busy_timeout applies) instead of failing with SQLITE_BUSY
          // when a read transaction has to be upgraded under contention; WAL synced at checkpoints, as Temporal's.
          `--sqlite-url=file:${path.join(dir, 'sqlite')}/?_txlock=immediate&_pragma=synchronous(normal)`,
        ]
      : ['--handler=postgresql', `--postgresql-url=${backend.url}`];
  return [
    ...storage,
    `--state-dir=${path.join(dir, 'state')}`,
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    '--debug-addr=-',
    '--log-level=warn',
    '--log-format=json',
  ];
}
