import { proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { taskQueueOf, type ActivityResource } from './task-queues';

/**
 * The activities, scheduled on the task queue of the resource they use beside the calling workflow's own queue
 * (workflows/task-queues.ts). Called inside a workflow function: the queue is read from the running workflow.
 */
export function activitiesOn(resource: ActivityResource, options: ActivityOptions) {
  return proxyActivities<Activities>({ ...options, taskQueue: taskQueueOf(resource, workflowInfo().taskQueue) });
}
