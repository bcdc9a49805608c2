import type { Logger } from './logger';

/**
 * How a process of ours ends when it is asked to, or when whoever started it is gone. Draining (the
 * API's open requests, the worker's running activities) is bounded: a stop that hangs (a server that is
 * itself gone, a socket that never answers) must not keep the process forever. Ending mid-activity is
 * a crash as far as Temporal is concerned: the attempt times out and runs again, and deliveries are
 * idempotent (one Message-ID, one AS4 MessageId).
 */

/** Longer than a drain takes when the servers answer; as long as an orchestrator's usual grace (Kubernetes: 30 s). */
const STOP_DEADLINE_MS = 30_000;

/** Set in the environment of a process whose parent supervises it (the embedded stack's children). */
export const END_WITH_PARENT = 'END_WITH_PARENT';

/** After a stop has begun: exit with 1 if the process is still here `ms` later. */
export function exitIfStopStalls(logger: Logger, ms = STOP_DEADLINE_MS): void {
  setTimeout(() => {
    logger.error({ deadlineMs: ms }, 'stopping took longer than its deadline: exiting without finishing');
    process.exit(1);
  }, ms).unref();
}

/** Calls `gone` once the process that started this one has gone (this one is then re-parented), however it went. */
export function onParentGone(gone: () => void, everyMs = 1_000): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
}

/**
 * When END_WITH_PARENT is set: a SIGTERM to itself once its parent is gone, so the process stops as a
 * supervisor would have stopped it. The kernel does the same for the embedded stack's children where
 * util-linux's setpriv is found (stack/managed-process.ts), and then the variable is not set: a second
 * SIGTERM would end a drain the first began.
 */
export function stopWithParent(): void {
  if (process.env[END_WITH_PARENT] !== '1') return;
  onParentGone(() => process.kill(process.pid, 'SIGTERM'));
}
