import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { sortableIdBound } from '../../domain/ids';
import type { Logger } from '../../platform/logger';
import { startWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { writeBehind, type WriteBehind } from '../write-behind';
import { SEARCH_ATTRIBUTES, sendWorkflowId, type DeliveryWindows } from '../../workflows/shared';
import { discardParts } from './accept';
import { recordMoveEvent } from './lifecycle';

/**
 * Handing accepted documents to their send workflows. The workflow id is the
 * document's (`send-<id>`) and a finished workflow's id is never reused, so
 * however often a start is repeated (the API, then the reconciler; a retried
 * request), a document is sent by exactly one workflow run.
 */

export function documentSummary(document: Pick<DocumentRow, '_id' | 'type' | 'number' | 'company_id' | 'environment' | 'recipient_email'>): string {
  const kind = document.type === 'credit_note' ? 'Credit note' : 'Invoice';
  const to = document.environment === 'sandbox' && document.recipient_email ? ` to ${document.recipient_email}` : '';
  return `${kind} ${document.number} of ${document.company_id} (${document.environment})${to}`;
}

/** Starts the send workflow, searchable in the Web UI by document, company, workspace, status and environment. */
export async function startSendWorkflow(temporal: Client, document: DocumentRow, deliveryWindows: DeliveryWindows): Promise<void> {
  await startWorkflow(temporal, 'sendDocumentWorkflow', {
    workflowId: sendWorkflowId(document._id),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    input: { documentId: document._id, deliveryWindowSeconds: deliveryWindows[document.environment], ...(document.attach_pdf ? { attachPdf: true } : {}) },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.documentId, value: document._id },
      { key: SEARCH_ATTRIBUTES.companyId, value: document.company_id },
      { key: SEARCH_ATTRIBUTES.workspaceId, value: document.workspace_id },
      { key: SEARCH_ATTRIBUTES.documentStatus, value: document.status },
      { key: SEARCH_ATTRIBUTES.environment, value: document.environment },
    ],
    staticSummary: documentSummary(document),
  });
}

/** Starts the workflow of an accepted document the reconciler found in the outbox, and takes it off. */
async function dispatchDocument(store: Store, temporal: Client, document: DocumentRow, deliveryWindows: DeliveryWindows): Promise<void> {
  await startSendWorkflow(temporal, document, deliveryWindows);
  await store.dispatches.deleteOne({ _id: document._id });
}

/**
 * Outbox rows of documents whose workflows the API started, removed behind
 * the requests, many in one delete. A row a failed delete or a stopped
 * process leaves is the reconciler's: it finds the workflow started (a start
 * of the same id is refused) and removes the row.
 */
export function startedDispatches(store: Store, logger: Logger): WriteBehind<string> {
  return writeBehind(
    async (documentIds) => void (await store.dispatches.deleteMany({ _id: { $in: documentIds } })),
    (err, documentIds) => logger.warn({ err, documents: documentIds.length }, 'outbox rows of started documents not removed; the reconciler will'),
  );
}

/** An outbox row younger than this may still be on its way through the API. */
export const DISPATCH_GRACE_MS = 30_000;

/**
 * The reconciler's pass over the outbox, oldest first: a document whose
 * request died before its workflow started gets its queued event and its
 * workflow; the parts of a request that died before its document row was
 * written are removed. Only unfinished dispatches are in the outbox, so no
 * backlog of started documents can hide one that is not.
 */
export async function reconcileDispatches(
  store: Store,
  temporal: Client,
  deliveryWindows: DeliveryWindows,
  logger: Logger,
  options: { now?: number; batch?: number } = {},
): Promise<number> {
  // Outbox ids are document ids, which start with the time of acceptance.
  const cutoff = sortableIdBound('document', (options.now ?? Date.now()) - DISPATCH_GRACE_MS);
  const due = await store.dispatches
    .find({ _id: { $lt: cutoff } })
    .sort({ _id: 1 })
    .limit(options.batch ?? 200)
    .lean();
  for (const { _id: documentId } of due) {
    const document = await store.documents.findById(documentId).lean();
    if (document) {
      await recordMoveEvent(store, document, 'accept', { message: 'Accepted and queued' }, logger);
      await dispatchDocument(store, temporal, document, deliveryWindows);
      logger.warn({ documentId }, 'started a send workflow the API could not start');
    } else {
      await discardParts(store, documentId);
      logger.warn({ documentId }, 'removed the parts of a document whose request did not complete');
    }
  }
  return due.length;
}
