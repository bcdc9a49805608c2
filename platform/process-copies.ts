import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';

import type { Logger } from './logger';
import { stopWithParent } from './shutdown';

/**
 * Several copies of one process entry (the API, the worker) under a primary
 * that only supervises: node:cluster forks them, and the API's copies share
 * its listening ports (the primary hands each connection to the next copy).
 * A copy that dies is started again; one that keeps dying within a minute
 * brings the primary down, so the supervisor above (the embedded stack,
 * Docker's restart policy) sees the failure. SIGTERM or SIGINT to the primary
 * reaches every copy, each drains as a single process does, and the primary
 * exits when the last one has. With one copy there is no primary: the entry
 * runs in this process, as it always did.
 */

/** One per core on a larger machine, at most 8 (past that, more containers or machines); one on two cores or fewer, which the databases need too. */
export function defaultProcessCount(cores = availableParallelism()): number {
  return cores <= 2 ? 1 : Math.min(cores, 8);
}

/** More deaths than this within the period and the primary gives up. */
const CRASH_LIMIT = { count: 5, periodMs: 60_000 };
const RESTART_DELAY_MS = 1_000;

export function runCopies(
  count: number,
  logger: Logger,
  main: () => Promise<void>,
  onFailure: (err: unknown) => void,
): void {
  // A copy needs no watch: node:cluster ends it when its channel to the primary closes.
  if (cluster.isPrimary) stopWithParent();
  if (cluster.isWorker) {
    // The primary passes its stop on, and the process group's signal may reach a copy too: the second
    // must not end a copy still draining (the Temporal runtime listens for the first one only).
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => undefined);
  }
  if (count <= 1 || cluster.isWorker) {
    main().catch(onFailure);
    return;
  }
  superviseCopies(count, logger);
}

/** Tells each copy its place among them, 0 to count − 1; a replacement takes the place of the copy it replaces. */
const COPY_INDEX_VARIABLE = 'PROCESS_COPY_INDEX';

/**
 * This process's place among the copies (0 when it is not a copy): what a copy binds alone, such as the
 * Temporal SDK's metrics port, is offset by it, so N copies on one machine never ask for the same port.
 */
export function copyIndex(): number {
  return cluster.isWorker ? Number(process.env[COPY_INDEX_VARIABLE] ?? 0) : 0;
}

/** How a process names itself to others (a Temporal worker's identity): pid@host, and its primary's pid when it is a copy. */
export function processIdentity(hostname: string): string {
  return cluster.isWorker ? `${process.pid}@${hostname} copy of ${process.ppid}` : `${process.pid}@${hostname}`;
}

function superviseCopies(count: number, logger: Logger): void {
  let stopping = false;
  const deaths: number[] = [];
  const places = new Map<Worker, number>();
  const fork = (index: number) => {
    const copy = cluster.fork({ [COPY_INDEX_VARIABLE]: String(index) });
    places.set(copy, index);
    logger.info({ pid: copy.process.pid, index }, 'copy started');
  };

  cluster.on('exit', (copy: Worker, code: number | null, signal: string | null) => {
    const index = places.get(copy) ?? 0;
    places.delete(copy);
    if (stopping) {
      // The exit code set when giving up, 0 otherwise.
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
      return;
    }
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! < now - CRASH_LIMIT.periodMs) deaths.shift();
    if (deaths.length > CRASH_LIMIT.count) {
      logger.fatal({ deaths: deaths.length }, 'copies keep dying: stopping the rest');
      process.exitCode = 1;
      stopAll();
      return;
    }
    logger.error({ pid: copy.process.pid, code, signal }, 'copy exited unexpectedly; starting another');
    // Not unref'd: when every copy has died, this timer is what keeps the primary alive to start one again.
    setTimeout(() => {
      if (!stopping) fork(index);
    }, RESTART_DELAY_MS);
  });

  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    const copies = Object.values(cluster.workers ?? {}).filter((copy): copy is Worker => copy !== undefined);
    if (copies.length === 0) process.exit();
    for (const copy of copies) copy.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);

  logger.info({ copies: count, pid: process.pid }, 'starting copies');
  for (let i = 0; i < count; i += 1) fork(i);
}
