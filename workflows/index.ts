// Every workflow the worker runs is exported here; the worker bundles this file.
export { deliverWebhookWorkflow } from './deliver-webhook';
export { kycReviewWorkflow } from './kyc-review';
export { cleanupRateWindowsWorkflow } from './maintenance';
export { provisionCompanyWorkflow } from './provision-company';
export { reconcileQueuedDocumentsWorkflow } from './reconcile';
export { reconcileEventFanOutWorkflow } from './reconcile-fanout';
export { reconcileKycReviewsWorkflow } from './reconcile-kyc';
export { sendDocumentWorkflow } from './send-document';
