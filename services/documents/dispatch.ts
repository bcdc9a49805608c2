import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { startWithUpdate } from '../../platform/workflow-port';
import type { DocumentRow } from '../../store/documents';
import { ACCEPT_UPDATE, SEARCH_ATTRIBUTES, sendWorkflowId, type DeliveryWindows } from '../../workflows/shared';
import type { AcceptanceOutcome, DocumentAcceptance } from '../../domain/documents/acceptance';

/**
 * Handing an accepted document to its send workflow, by Update-with-Start: one call starts the workflow
 * (`send-<document id>`) and asks its `accept` update, which answers once the workflow's first step has
 * recorded the document. The start and the update are one operation, so a workflow never runs without the
 * request's acceptance, and a request never answers 202 for a document not recorded. A finished workflow's id is
 * never reused and the update's id is fixed, so a repeated call (the client library's retry) is answered once.
 */

function documentSummary(
  document: Pick<DocumentRow, '_id' | 'type' | 'number' | 'company_id' | 'environment' | 'recipient_email'>,
): string {
  const kind = document.type === 'credit_note' ? 'Credit note' : 'Invoice';
  const to = document.environment === 'sandbox' && document.recipient_email ? ` to ${document.recipient_email}` : '';
  return `${kind} ${document.number} of ${document.company_id} (${document.environment})${to}`;
}

/** Starts the send workflow with the acceptance, searchable in the Web UI by document, company, workspace, status and environment; answers its first step's outcome. */
export async function acceptBySendWorkflow(
  temporal: Client,
  acceptance: DocumentAcceptance,
  deliveryWindows: DeliveryWindows,
): Promise<AcceptanceOutcome> {
  const { row } = acceptance;
  return startWithUpdate<'sendDocumentWorkflow', AcceptanceOutcome>(temporal, 'sendDocumentWorkflow', ACCEPT_UPDATE, {
    workflowId: sendWorkflowId(row._id),
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    input: {
      documentId: row._id,
      acceptance,
      deliveryWindowSeconds: deliveryWindows[row.environment],
      ...(row.attach_pdf ? { attachPdf: true } : {}),
    },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.documentId, value: row._id },
      { key: SEARCH_ATTRIBUTES.companyId, value: row.company_id },
      { key: SEARCH_ATTRIBUTES.workspaceId, value: row.workspace_id },
      { key: SEARCH_ATTRIBUTES.documentStatus, value: row.status },
      { key: SEARCH_ATTRIBUTES.environment, value: row.environment },
    ],
    staticSummary: documentSummary(row),
  });
}
