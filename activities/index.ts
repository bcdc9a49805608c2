import type { ActivityDependencies } from './dependencies';
import { emailDeliveryActivities } from './email-delivery';
import { kycActivities } from './kyc';
import { lifecycleActivities } from './lifecycle';
import { maintenanceActivities } from './maintenance';
import { peppolDeliveryActivities } from './peppol-delivery';
import { receivingActivities } from './receiving';
import { reconcileActivities } from './reconcile';
import { renderedPdfActivities } from './rendered-pdf';
import { reportingActivities } from './reporting';
import { validateForSendingActivities } from './validate-for-sending';
import { replyActivities } from './replies';
import { webhookActivities } from './webhooks';

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...maintenanceActivities(deps),
    ...lifecycleActivities(deps),
    embedRenderedPdf: renderedPdfActivities(deps).embedRenderedPdf,
    ...validateForSendingActivities(deps),
    ...emailDeliveryActivities(deps),
    ...peppolDeliveryActivities(deps),
    ...reconcileActivities(deps),
    ...webhookActivities(deps),
    ...kycActivities(deps),
    ...receivingActivities(deps),
    ...reportingActivities(deps),
    ...replyActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
