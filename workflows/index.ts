import type { StartedWorkflows } from './shared';
import { kycReviewWorkflow } from './kyc-review';
import { peppolReportingWorkflow } from './peppol-reporting';
import { provisionCompanyWorkflow } from './provision-company';
import { receiveDocumentWorkflow } from './receive-document';
import { registerServiceProviderWorkflow } from './register-service-provider';
import { sendDocumentWorkflow } from './send-document';
import { sendResponseWorkflow } from './send-response';
import { syncReceivingWorkflow } from './sync-receiving';
import { webhookEndpointWorkflow } from './webhook-endpoint';

// Every workflow the worker runs is exported here; the worker bundles this file.
export { housekeepingWorkflow } from './housekeeping';
export { monthlyPeppolReportingWorkflow } from './peppol-reporting';
export {
  kycReviewWorkflow,
  peppolReportingWorkflow,
  provisionCompanyWorkflow,
  receiveDocumentWorkflow,
  registerServiceProviderWorkflow,
  sendDocumentWorkflow,
  sendResponseWorkflow,
  syncReceivingWorkflow,
  webhookEndpointWorkflow,
};

/** The workflows services start by name (workflows/shared.ts): each must take the input written there. */
export const startedWorkflows = {
  sendDocumentWorkflow,
  webhookEndpointWorkflow,
  kycReviewWorkflow,
  provisionCompanyWorkflow,
  receiveDocumentWorkflow,
  syncReceivingWorkflow,
  peppolReportingWorkflow,
  sendResponseWorkflow,
  registerServiceProviderWorkflow,
} satisfies StartedWorkflows;
