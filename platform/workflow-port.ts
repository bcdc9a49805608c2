import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';

import { workflowQueueOf, type StartedWorkflowInputs } from '../workflows/shared';

/**
 * How services start workflows: by type name and business-keyed id, with the
 * input workflows/shared.ts names for that type. Services import neither
 * workflow code nor, through it, the activities, so the imports run one way
 * (services → platform → workflows/shared).
 */

export type StartOptions<Name extends keyof StartedWorkflowInputs> = Omit<
  WorkflowStartOptions,
  'args' | 'taskQueue'
> & { input: StartedWorkflowInputs[Name] };

/** Starts the workflow; false when one with that id already runs (or ran, as the reuse policy says), which a business-keyed start treats as done. */
export async function startWorkflow<Name extends keyof StartedWorkflowInputs>(
  temporal: Client,
  type: Name,
  { input, ...options }: StartOptions<Name>,
): Promise<boolean> {
  try {
    await temporal.workflow.start(type, { ...options, taskQueue: workflowQueueOf(type), args: [input] });
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/**
 * Tells the workflow with that id that something changed, starting it first
 * when none runs: a business-keyed workflow that re-reads its state when
 * signalled never misses a change made while it ran.
 */
export async function signalWorkflow<Name extends keyof StartedWorkflowInputs>(
  temporal: Client,
  type: Name,
  signal: string,
  { input, ...options }: StartOptions<Name>,
  signalArgs: unknown[] = [],
): Promise<void> {
  await temporal.workflow.signalWithStart(type, {
    ...options,
    taskQueue: workflowQueueOf(type),
    args: [input],
    signal,
    signalArgs,
  });
}

/**
 * How long a request waits for a workflow started with an update to answer it. The first step it waits for is one
 * local activity of a few database writes; it waits this long only when the workers or the database are away.
 */
const UPDATE_ANSWER_WAIT_MS = 20_000;

/** The update was not answered in time, or Temporal could not be reached: whether its step was done is not known. */
export class UnansweredUpdateError extends Error {
  override name = 'UnansweredUpdateError';
}

/**
 * Starts the workflow and asks it an update in one call (Update-with-Start), waiting for the update's answer at
 * most UPDATE_ANSWER_WAIT_MS. While the workflow runs, a repeat joins it (the update's id is its name, so it is
 * answered once, with the first answer); a finished one's id follows the reuse policy given.
 */
export async function startWithUpdate<Name extends keyof StartedWorkflowInputs, Result>(
  temporal: Client,
  type: Name,
  update: string,
  { input, ...options }: StartOptions<Name>,
): Promise<Result> {
  const startWorkflowOperation = new WithStartWorkflowOperation(type, {
    ...options,
    taskQueue: workflowQueueOf(type),
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
  try {
    return await temporal.withDeadline(Date.now() + UPDATE_ANSWER_WAIT_MS, () =>
      temporal.workflow.executeUpdateWithStart(update, { updateId: update, startWorkflowOperation }),
    );
  } catch (err) {
    throw new UnansweredUpdateError(
      `The ${type} ${options.workflowId} did not answer its ${update} update: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}
