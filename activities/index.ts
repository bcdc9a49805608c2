import type { Client } from '@temporalio/client';
import type { Transporter } from 'nodemailer';

import type { Logger } from '../platform/logger';
import type { UsageCounters } from '../services/usage';
import type { Store } from '../store';
import { deliveryActivities } from './delivery';
import { maintenanceActivities } from './maintenance';
import { reconcileActivities } from './reconcile';

export interface ActivityDependencies {
  store: Store;
  logger: Logger;
  mailer: Transporter;
  mailFrom: string;
  usage: UsageCounters;
  temporal: Client;
  deliveryWindowSeconds: number;
}

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...maintenanceActivities(deps),
    ...deliveryActivities(deps),
    ...reconcileActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
