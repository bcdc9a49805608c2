import { Client, Connection, ScheduleAlreadyRunning, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

import { SCHEDULES, SEARCH_ATTRIBUTE_TYPES, SEARCH_ATTRIBUTES, sendWorkflowId, TASK_QUEUE, type SendDocumentInput } from '../workflows/shared';

/** Lazy so the API starts (and reports `degraded`) while Temporal is still coming up. */
export function connectTemporalClient(address: string): Connection {
  return Connection.lazy({ address });
}

export async function pingTemporal(connection: Connection, timeoutMs = 2_000): Promise<boolean> {
  try {
    await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
    return true;
  } catch {
    return false;
  }
}

/**
 * Registers the project's search attributes on any Temporal server (the dev
 * server gets them as start flags too). Adding is idempotent: existing ones are skipped.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const { IndexedValueType } = temporal.api.enums.v1;
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = Object.entries(SEARCH_ATTRIBUTE_TYPES).filter(([name]) => !(name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(
      missing.map(([name, type]) => [name, IndexedValueType[`INDEXED_VALUE_TYPE_${type.toUpperCase()}` as keyof typeof IndexedValueType]]),
    ),
  });
}

/** Creates the project's schedules if they do not exist yet (every worker start calls this). */
export async function ensureSchedules(connection: Connection, namespace: string): Promise<void> {
  const client = new Client({ connection, namespace });
  for (const schedule of SCHEDULES) {
    try {
      await client.schedule.create({
        scheduleId: schedule.id,
        spec: { intervals: [{ every: schedule.every }] },
        action: { type: 'startWorkflow', workflowType: schedule.workflowType, taskQueue: TASK_QUEUE, workflowId: schedule.id },
      });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
}

export interface SendableDocument {
  _id: string;
  company_id: string;
  workspace_id: string;
  type: string;
  number: string;
  recipient_email?: string | null;
}

/**
 * Starts the send workflow of a document, searchable in the Web UI by
 * document, company, workspace and status. Starting one that exists already
 * is not an error: the workflow id is the document's.
 */
export async function startSendWorkflow(client: Client, document: SendableDocument, deliveryWindowSeconds: number): Promise<void> {
  const args: [SendDocumentInput] = [{ documentId: document._id, deliveryWindowSeconds }];
  try {
    await client.workflow.start('sendDocumentWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: sendWorkflowId(document._id),
      args,
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.documentId, value: document._id },
        { key: SEARCH_ATTRIBUTES.companyId, value: document.company_id },
        { key: SEARCH_ATTRIBUTES.workspaceId, value: document.workspace_id },
        { key: SEARCH_ATTRIBUTES.documentStatus, value: 'queued' },
      ],
      staticSummary: `${document.type === 'credit_note' ? 'Credit note' : 'Invoice'} ${document.number} of ${document.company_id}${
        document.recipient_email ? ` to ${document.recipient_email}` : ''
      }`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
