import type { Client } from '@temporalio/client';

import type { SecretBox } from '../domain/secret-box';
import type { Logger } from '../platform/logger';
import type { OfficialValidator } from '../platform/official-validator';
import type { PeppolAccessPoint } from '../platform/peppol-access-point';
import type { PeppolLookup } from '../platform/peppol-lookup';
import type { FanOutDependencies } from '../services/webhooks/deliveries';
import type { UsageCounters } from '../services/usage';
import type { Store } from '../store';
import { emailDeliveryActivities } from './email-delivery';
import { kycActivities } from './kyc';
import { lifecycleActivities } from './lifecycle';
import { maintenanceActivities } from './maintenance';
import { officialValidationActivities } from './official-validation';
import { peppolDeliveryActivities } from './peppol-delivery';
import { reconcileActivities } from './reconcile';
import { webhookActivities } from './webhooks';

export interface ActivityDependencies {
  store: Store;
  logger: Logger;
  smtpUrl: string;
  mailFrom: string;
  usage: UsageCounters;
  temporal: Client;
  deliveryWindowSeconds: number;
  secretBox: SecretBox;
  allowPrivateTargets: boolean;
  /** The official Peppol rules, asked before every send. */
  validator: OfficialValidator;
  /** Live delivery: participant discovery and our AS4 access point. */
  peppol: { lookup: PeppolLookup; accessPoint: PeppolAccessPoint };
  /** What fanning events out to webhooks needs. */
  fanOut: FanOutDependencies;
}

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...maintenanceActivities(deps),
    ...lifecycleActivities(deps),
    ...officialValidationActivities(deps),
    ...emailDeliveryActivities(deps),
    ...peppolDeliveryActivities(deps),
    ...reconcileActivities(deps),
    ...webhookActivities(deps),
    ...kycActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
