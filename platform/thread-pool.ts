import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A few worker threads that run CPU-heavy pure functions (reading and
 * converting large documents, measuring XML), so the process's event loop
 * keeps answering other requests while they run. Tasks wait in one queue, in
 * order; a full queue refuses at once rather than letting waits grow without
 * bound. A thread that dies fails its task and is replaced.
 *
 * Not piscina: it loads task modules by file URL, which the development
 * loader (tsx's CommonJS hook, which the threads get through `execArgv`)
 * cannot serve; these threads `require` the module instead.
 */

export class ThreadPoolBusyError extends Error {
  override name = 'ThreadPoolBusyError';
}

type TaskModule = Record<string, (input: never) => unknown>;

export interface ThreadPool<M extends TaskModule> {
  run<K extends keyof M & string>(task: K, input: Parameters<M[K]>[0]): Promise<Awaited<ReturnType<M[K]>>>;
  close(): Promise<void>;
}

export interface ThreadPoolOptions {
  /** Threads; default one less than the cores, at least one. */
  threads?: number;
  /** Tasks that may wait for a thread; more are refused with ThreadPoolBusyError. */
  maxQueue: number;
}

interface Job {
  task: string;
  input: unknown;
  resolve: (value: never) => void;
  reject: (err: Error) => void;
}

/** What runs in each thread: receive `{task, input}`, answer `{value}` or `{error}`. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const tasks = require(workerData.module);
parentPort.on('message', ({ task, input }) => {
  try {
    parentPort.postMessage({ value: tasks[task](input) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Error ? err.stack || err.message : String(err) });
  }
});
`;

export const defaultThreadCount = () => Math.max(1, availableParallelism() - 1);

export function threadPool<M extends TaskModule>(modulePath: string, options: ThreadPoolOptions): ThreadPool<M> {
  const size = options.threads ?? defaultThreadCount();
  // TypeScript sources (development, tests) need the same loader in the threads as in this process.
  const execArgv = modulePath.endsWith('.ts') ? ['--require', require.resolve('tsx/cjs')] : [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let closed = false;

  const start = () => {
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { module: modulePath }, execArgv });
    worker.on('message', (message: { value?: unknown; error?: string }) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if (message.error !== undefined)
          job.reject(new Error(`task ${job.task} failed in a worker thread: ${message.error}`));
        else job.resolve(message.value as never);
      }
      idle.push(worker);
      dispatch();
    });
    worker.on('error', (err) => {
      busy.get(worker)?.reject(err);
      busy.delete(worker);
    });
    worker.on('exit', () => {
      const job = busy.get(worker);
      busy.delete(worker);
      job?.reject(new Error(`the worker thread running ${job.task} exited`));
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (!closed) {
        start();
        dispatch();
      }
    });
    // Idle threads must not keep the process alive on their own.
    worker.unref();
    idle.push(worker);
  };

  const dispatch = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.shift()!;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage({ task: job.task, input: job.input });
    }
  };

  for (let i = 0; i < size; i += 1) start();

  return {
    run(task, input) {
      if (closed) return Promise.reject(new Error('the thread pool is closed'));
      if (queue.length >= options.maxQueue) {
        return Promise.reject(
          new ThreadPoolBusyError(
            `${queue.length} tasks are already waiting for ${size} worker thread${size === 1 ? '' : 's'}`,
          ),
        );
      }
      return new Promise((resolve, reject) => {
        queue.push({ task, input, resolve: resolve, reject });
        dispatch();
      });
    },

    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('the thread pool closed'));
      await Promise.all([...idle, ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}
