// Every workflow the worker runs is exported here; the worker bundles this file.
export { cleanupRateWindowsWorkflow } from './maintenance';
export { reconcileQueuedDocumentsWorkflow } from './reconcile';
export { sendDocumentWorkflow } from './send-document';
