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

/** Schedules the worker keeps in place: id, workflow type and interval. */
export const SCHEDULES = [
  { id: 'rate-window-cleanup', workflowType: 'cleanupRateWindowsWorkflow', every: '10 minutes' },
] as const;
