import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';

import { buildIdOf, takeOverIfNewest } from '../../worker/deployment';
import { QueueWorkers } from '../../worker/task-queues';
import { cachedWorkflowBundle } from '../../worker/workflow-bundle';

/** The scripted failures are expected: only errors of the SDK itself are worth printing. */
function quietRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process.
  }
}

/** For the worker's takeover as the current build (worker/deployment.ts), whose lines a test has no use for. */
export const QUIET_LOGGER = { info: () => undefined, debug: () => undefined };

/**
 * How a stubbed recording step notes its call: once. A local activity runs at least once: when a workflow task
 * times out on a loaded machine, its retry replays the workflow and runs the step again. The real recording steps
 * are conditional updates that change nothing the second time; a stub, like them, leaves its mark once.
 */
export function recorderOnce(calls: string[]): (call: string) => Promise<void> {
  return (call) => Promise.resolve(void (calls.includes(call) || calls.push(call)));
}

/** Where a scenario's run goes: a task queue of its own and the one workflow id on it. */
export interface OwnRun {
  taskQueue: string;
  workflowId: string;
}

/**
 * One workflow run to its end on workers of its own task queues (named from
 * `name` and the time, on the shared stack's dev server) with a scenario's
 * stubbed activities. The worker is versioned as the service's is (a worker
 * deployment of the run's own, its build current before the start): the
 * workflows that move to new builds say so, which only a versioned worker
 * may. `start` starts it with `run`'s task queue and id (and signals it, if
 * the scenario does); `inspect` reads what the test needs of
 * the finished run while the connections are still open.
 */
export async function runOnOwnWorker<W extends Workflow, Seen>(
  temporalAddress: string,
  name: string,
  activities: object,
  start: (client: Client, run: OwnRun) => Promise<WorkflowHandle<W>>,
  inspect: (handle: WorkflowHandle<W>, result: WorkflowResultType<W>, seconds: number) => Promise<Seen>,
): Promise<Seen> {
  quietRuntime();
  const taskQueue = `${name}-${Date.now()}`;
  const native = await NativeConnection.connect({ address: temporalAddress });
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const codePath = await cachedWorkflowBundle();
    const version = { deploymentName: taskQueue, buildId: await buildIdOf(codePath) };
    const workers = await QueueWorkers.create({
      connection: native,
      baseQueue: taskQueue,
      codePath,
      version,
      activities,
    });
    return await workers.runUntil(async () => {
      await takeOverIfNewest(connection, 'default', version, QUIET_LOGGER, new AbortController().signal);
      const started = Date.now();
      const handle = await start(new Client({ connection }), { taskQueue, workflowId: `${taskQueue}-run` });
      const result = (await handle.result()) as WorkflowResultType<W>;
      return inspect(handle, result, (Date.now() - started) / 1000);
    });
  } finally {
    await connection.close();
    await native.close();
  }
}
