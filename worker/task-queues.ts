import { availableParallelism } from 'node:os';

import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';

import type { Config } from '../platform/config';
import { RESOURCE_NAMES, taskQueueOf, type Resource } from '../workflows/task-queues';
import { deploymentOptions, type WorkerVersion } from './deployment';

/**
 * How many tasks of each resource's queue one worker process runs at once (workflows/task-queues.ts): what the
 * resource itself can take, so a task waits in Temporal (where the Web UI shows the backlog) rather than in a
 * socket or a permit queue after its start-to-close clock began.
 */
export interface QueueSlots {
  validation: number;
  as4: number;
  email: number;
  webhooks: number;
  housekeeping: number;
}

/** Two chores at a time: the reconcilers are a safety net, never the service's main load. */
const HOUSEKEEPING_SLOTS = 2;

/**
 * The slots configured, or for validation what the validator takes: its `send` lane's permits (it reports them
 * on /health; one per core of its host when it does not answer), shared among this host's worker processes.
 */
export function configuredSlots(
  config: Pick<
    Config,
    'VALIDATION_TASK_SLOTS' | 'AS4_TASK_SLOTS' | 'EMAIL_TASK_SLOTS' | 'WEBHOOK_TASK_SLOTS' | 'WORKER_PROCESSES'
  >,
  validatorSendPermits: number | undefined,
): QueueSlots {
  const permits = validatorSendPermits ?? availableParallelism();
  return {
    validation: config.VALIDATION_TASK_SLOTS ?? Math.max(1, Math.ceil(permits / config.WORKER_PROCESSES)),
    as4: config.AS4_TASK_SLOTS,
    email: config.EMAIL_TASK_SLOTS,
    webhooks: config.WEBHOOK_TASK_SLOTS,
    housekeeping: HOUSEKEEPING_SLOTS,
  };
}

export interface QueueWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  /** The queue the workflows run on; every other queue's name derives from it. */
  baseQueue: string;
  /** The queues this process polls (WORKER_TASK_QUEUES); all by default. */
  resources?: readonly Resource[];
  codePath: string;
  activities: object;
  /** Each queue's slots; unset, the SDK's defaults (a test's worker). */
  slots?: QueueSlots;
  /** The build in its worker deployment; unversioned without (the time-skipping test server has no deployments). */
  version?: WorkerVersion;
  identity?: string;
  /** Tracing's interceptors and sinks. */
  shared?: Pick<WorkerOptions, 'interceptors' | 'sinks'>;
}

/** What a queue's worker runs and how many at once: workflow tasks and their local activities, or activities. */
function queueOptions(resource: Resource, { codePath, slots }: QueueWorkerOptions): Partial<WorkerOptions> {
  switch (resource) {
    case 'workflows':
      return { workflowBundle: { codePath } };
    case 'webhooks':
      // The attempts are local activities of the delivery workflows: their slots bound the requests in flight.
      return { workflowBundle: { codePath }, ...(slots && { maxConcurrentLocalActivityExecutions: slots.webhooks }) };
    default: {
      if (!slots) return {};
      const count = slots[resource];
      return { maxConcurrentActivityTaskExecutions: count, maxConcurrentActivityTaskPolls: Math.min(count, 5) };
    }
  }
}

/** One Temporal worker per queue this process polls, run and stopped together. */
export class QueueWorkers {
  constructor(readonly workers: ReadonlyMap<Resource, Worker>) {}

  static async create(options: QueueWorkerOptions): Promise<QueueWorkers> {
    const workers = new Map<Resource, Worker>();
    for (const resource of options.resources ?? RESOURCE_NAMES) {
      workers.set(
        resource,
        await Worker.create({
          connection: options.connection,
          ...(options.namespace && { namespace: options.namespace }),
          ...(options.identity && { identity: options.identity }),
          taskQueue: taskQueueOf(resource, options.baseQueue),
          activities: options.activities,
          ...(options.version && { workerDeploymentOptions: deploymentOptions(options.version) }),
          ...options.shared,
          ...queueOptions(resource, options),
        }),
      );
    }
    return new QueueWorkers(workers);
  }

  /** Runs every queue's worker until all have stopped (the runtime stops them on SIGINT and SIGTERM); one that fails stops the others. */
  async run(): Promise<void> {
    await settleAll(
      [...this.workers.values()].map((worker) =>
        worker.run().catch((err: unknown) => {
          this.shutdown();
          throw err;
        }),
      ),
    );
  }

  shutdown(): void {
    for (const worker of this.workers.values()) if (worker.getState() === 'RUNNING') worker.shutdown();
  }

  /** Runs them while `work` runs, then stops them; resolves or rejects as `work` did. */
  async runUntil<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    await settleAll(
      [...this.workers.values()].map((worker) =>
        worker.runUntil(
          running.then(
            () => undefined,
            () => undefined,
          ),
        ),
      ),
    );
    return running;
  }
}

/** Waits for every promise, then throws the first failure: no worker is left running because another failed. */
async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failure = (await Promise.allSettled(promises)).find(
    (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
  );
  if (failure) throw failure.reason;
}
