import { temporal } from '@temporalio/proto';
import { NativeConnection } from '@temporalio/worker';

import { QueueWorkers } from '../../worker/task-queues';
import { cachedWorkflowBundle } from '../../worker/workflow-bundle';
import { sendWorkflowId, TASK_QUEUE, webhookEndpointWorkflowId } from '../../workflows/shared';
import { RESOURCE_NAMES, taskQueueOf, type Resource } from '../../workflows/task-queues';
import { validFixtures } from '../fixtures/documents';
import { callAs } from '../support/accounts';
import { LIVE, liveSender, postLive, sendingAccount, waitForStatus } from '../support/documents';
import { ops } from '../support/ops';
import { scrape, valueOf } from '../support/prometheus';
import { sharedTemporalClient } from '../support/temporal';
import { sharedStack } from '../support/test-stack';
import { until } from '../support/until';
import { WebhookReceiver } from '../support/webhook-receiver';

const { TaskQueueType } = temporal.api.enums.v1;
const invoice = validFixtures.find((candidate) => candidate.name === 'standard rate S, one line')!.body;
const client = sharedTemporalClient();

/** The queues whose tasks are workflow tasks; the others carry activities. */
const runsWorkflows = (resource: Resource) => resource === 'workflows' || resource === 'webhooks';

async function pollersOf(queue: string, type: 'workflow' | 'activity'): Promise<string[]> {
  const { pollers } = await client().workflowService.describeTaskQueue({
    namespace: sharedStack().namespace,
    taskQueue: { name: queue },
    taskQueueType:
      type === 'workflow' ? TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW : TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  });
  return (pollers ?? []).map((poller) => poller.identity ?? '');
}

/** Each activity a workflow scheduled, by name, with the queue it was scheduled on. */
async function scheduledQueues(workflowId: string): Promise<Record<string, string>> {
  const history = await client().workflow.getHandle(workflowId).fetchHistory();
  return Object.fromEntries(
    (history.events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      return scheduled ? [[scheduled.activityType?.name ?? '', scheduled.taskQueue?.name ?? '']] : [];
    }),
  );
}

/**
 * A task queue per resource (workflows/task-queues.ts, docs/architecture.md, Task queues): the stack's worker
 * polls each with the slots of what it guards, and the work of each resource goes on its own queue.
 */
describe('task queues per resource', () => {
  const hooks = new WebhookReceiver();
  beforeAll(() => hooks.start());
  afterAll(() => hooks.stop());

  it('when the stack runs, then its worker polls every resource\u2019s queue, each with the slots configured for what it guards', async () => {
    for (const resource of RESOURCE_NAMES) {
      const queue = taskQueueOf(resource, TASK_QUEUE);
      expect({
        queue,
        polled: (await pollersOf(queue, runsWorkflows(resource) ? 'workflow' : 'activity')).length > 0,
      }).toEqual({ queue, polled: true });
    }
    // Slots free plus slots used is what the queue's worker has: the test stack's defaults (platform/config.ts).
    const families = await scrape(sharedStack().metrics.temporalWorker);
    const slotsOf = (queue: string, workerType: string) =>
      ['temporal_worker_task_slots_available', 'temporal_worker_task_slots_used'].reduce(
        (sum, name) => sum + valueOf(families, name, { task_queue: queue, worker_type: workerType }),
        0,
      );
    expect(slotsOf(taskQueueOf('as4', TASK_QUEUE), 'ActivityWorker')).toBe(8);
    expect(slotsOf(taskQueueOf('email', TASK_QUEUE), 'ActivityWorker')).toBe(4);
    expect(slotsOf(taskQueueOf('housekeeping', TASK_QUEUE), 'ActivityWorker')).toBe(2);
    expect(slotsOf(taskQueueOf('webhooks', TASK_QUEUE), 'LocalActivityWorker')).toBe(16);
    expect(slotsOf(taskQueueOf('validation', TASK_QUEUE), 'ActivityWorker')).toBeGreaterThanOrEqual(1);
  });

  it('when a sandbox document is sent with a webhook listening, then its validation runs on the validation queue, its email on the email queue and the webhook\u2019s endpoint workflow on the webhooks queue', async () => {
    const account = await sendingAccount();
    const webhook = await callAs(account.key, '/v1/webhooks', {
      method: 'POST',
      body: { url: hooks.url, events: ['document.delivered'] },
    });
    expect(webhook.status).toBe(201);
    const posted = await callAs(account.key, '/v1/documents', {
      method: 'POST',
      body: { ...invoice, company_id: account.companyId, attach_pdf: true },
    });
    await waitForStatus(account.key, posted.body.id, account.companyId, ['delivered']);

    expect(await scheduledQueues(sendWorkflowId(posted.body.id))).toEqual({
      embedRenderedPdf: taskQueueOf('validation', TASK_QUEUE),
      validateForSending: taskQueueOf('validation', TASK_QUEUE),
      deliverByEmail: taskQueueOf('email', TASK_QUEUE),
    });
    await until(
      'the webhook delivered',
      async () => (await callAs(account.key, `/v1/webhooks/${webhook.body.id}/deliveries`)).body.data,
      (list) => list?.[0]?.status === 'succeeded',
    );
    const description = await client().workflow.getHandle(webhookEndpointWorkflowId(webhook.body.id)).describe();
    expect(description.taskQueue).toBe(taskQueueOf('webhooks', TASK_QUEUE));
  });

  it('when a live document is sent, then its AS4 delivery runs on the as4 queue', async () => {
    const sender = await liveSender();
    expect((await ops('credits', 'add', sender.workspaceId, '1.00')).code).toBe(0);
    const posted = await postLive(sender.liveKey, {
      ...invoice,
      company_id: sender.companyId,
      number: 'LIVE-QUEUES-1',
    });
    expect(posted.status).toBe(202);
    await waitForStatus(sender.liveKey, posted.body.id, sender.companyId, ['delivered'], undefined, { host: LIVE });
    expect(await scheduledQueues(sendWorkflowId(posted.body.id))).toEqual({
      validateForSending: taskQueueOf('validation', TASK_QUEUE),
      deliverOnPeppol: taskQueueOf('as4', TASK_QUEUE),
    });
  });

  it('when a worker runs only some queues (WORKER_TASK_QUEUES), then it polls those and no other', async () => {
    const baseQueue = `subset-${Date.now()}`;
    const connection = await NativeConnection.connect({ address: sharedStack().temporalAddress });
    try {
      const workers = await QueueWorkers.create({
        connection,
        baseQueue,
        resources: ['as4', 'email'],
        codePath: await cachedWorkflowBundle(),
        activities: { deliverByEmail: () => Promise.resolve() },
      });
      await workers.runUntil(async () => {
        await until(
          'the as4 and email queues polled',
          () => Promise.all([pollersOf(`${baseQueue}-as4`, 'activity'), pollersOf(`${baseQueue}-email`, 'activity')]),
          (polled) => polled.every((pollers) => pollers.length > 0),
        );
        expect(await pollersOf(baseQueue, 'workflow')).toEqual([]);
        expect(await pollersOf(`${baseQueue}-validation`, 'activity')).toEqual([]);
      });
    } finally {
      await connection.close();
    }
  });
});
