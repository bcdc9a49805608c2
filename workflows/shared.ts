import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Names shared by the API (which starts workflows), the worker (which runs them)
 * and the embedded stack (which registers the search attributes). Pure constants:
 * safe to import from workflow code.
 */

export const TASK_QUEUE = 'einvoice';

/**
 * Custom search attributes an operator filters by in the Temporal Web UI,
 * e.g. `DocumentId = "doc_..."` or `DocumentStatus = "failed"`.
 */
export const SEARCH_ATTRIBUTE_TYPES = {
  DocumentId: 'Keyword',
  CompanyId: 'Keyword',
  WorkspaceId: 'Keyword',
  DocumentStatus: 'Keyword',
} as const;

export const SEARCH_ATTRIBUTES = {
  documentId: defineSearchAttributeKey('DocumentId', SearchAttributeType.KEYWORD),
  companyId: defineSearchAttributeKey('CompanyId', SearchAttributeType.KEYWORD),
  workspaceId: defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD),
  documentStatus: defineSearchAttributeKey('DocumentStatus', SearchAttributeType.KEYWORD),
};

/** Schedules the worker keeps in place: id, workflow type and interval. */
export const SCHEDULES = [
  { id: 'rate-window-cleanup', workflowType: 'cleanupRateWindowsWorkflow', every: '10 minutes' },
  { id: 'queued-document-reconciler', workflowType: 'reconcileQueuedDocumentsWorkflow', every: '1 minute' },
] as const;

/** One send workflow per document: the id is the business key, so starting twice is harmless. */
export const sendWorkflowId = (documentId: string) => `send-${documentId}`;

export interface SendDocumentInput {
  documentId: string;
  /** How long delivery is retried before the document fails (DELIVERY_WINDOW_SECONDS). */
  deliveryWindowSeconds: number;
}
