import { threadPool, type ThreadPool } from '../../platform/thread-pool';
import type * as CpuTasks from './cpu-tasks';

/**
 * The API's worker threads: reading and converting documents and measuring
 * XML from outside run there, so a large document never holds the event loop
 * that answers everyone else.
 */
export type CpuPool = ThreadPool<typeof CpuTasks>;

/** Tasks that may wait for a thread; beyond this a request is answered 503 `server_busy` at once. */
const MAX_WAITING_TASKS = 64;

export const cpuPool = (threads: number): CpuPool =>
  threadPool<typeof CpuTasks>(require.resolve('./cpu-tasks'), { threads, maxQueue: MAX_WAITING_TASKS });
