import type { StartedWorkflows } from './shared';
import { deliverWebhookWorkflow } from './deliver-webhook';
import { kycReviewWorkflow } from './kyc-review';
import { provisionCompanyWorkflow } from './provision-company';
import { sendDocumentWorkflow } from './send-document';

// Every workflow the worker runs is exported here; the worker bundles this file.
export { cleanupRateWindowsWorkflow } from './maintenance';
export { reconcileQueuedDocumentsWorkflow } from './reconcile';
export { reconcileEventFanOutWorkflow } from './reconcile-fanout';
export { reconcileKycReviewsWorkflow } from './reconcile-kyc';
export { deliverWebhookWorkflow, kycReviewWorkflow, provisionCompanyWorkflow, sendDocumentWorkflow };

/** The workflows services start by name (workflows/shared.ts): each must take the input written there. */
export const startedWorkflows = { sendDocumentWorkflow, deliverWebhookWorkflow, kycReviewWorkflow, provisionCompanyWorkflow } satisfies StartedWorkflows;
