// Every workflow the worker runs is exported here; the worker bundles this file.
export { deliverWebhookWorkflow } from './deliver-webhook';
export { cleanupRateWindowsWorkflow } from './maintenance';
export { reconcileQueuedDocumentsWorkflow } from './reconcile';
export { reconcileEventFanOutWorkflow } from './reconcile-fanout';
export { sendDocumentWorkflow } from './send-document';
