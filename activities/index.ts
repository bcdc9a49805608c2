import type { Logger } from '../platform/logger';
import type { Store } from '../store';
import { maintenanceActivities } from './maintenance';

export interface ActivityDependencies {
  store: Store;
  logger: Logger;
}

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...maintenanceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
