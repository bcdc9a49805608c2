import type { Client } from '@temporalio/client';

import type { Logger } from '../platform/logger';
import type { UsageCounters } from '../services/usage';
import type { Store } from '../store';
import { emailDeliveryActivities } from './email-delivery';
import { lifecycleActivities } from './lifecycle';
import { maintenanceActivities } from './maintenance';
import { reconcileActivities } from './reconcile';

export interface ActivityDependencies {
  store: Store;
  logger: Logger;
  smtpUrl: string;
  mailFrom: string;
  usage: UsageCounters;
  temporal: Client;
  deliveryWindowSeconds: number;
}

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...maintenanceActivities(deps),
    ...lifecycleActivities(deps),
    ...emailDeliveryActivities(deps),
    ...reconcileActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
