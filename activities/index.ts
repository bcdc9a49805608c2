import type { Connection } from 'mongoose';

import type { Logger } from '../platform/logger';
import { pingActivities } from './ping';

export interface ActivityDependencies {
  db: Connection;
  logger: Logger;
}

/** Activities close over the process's connections; the worker registers what this returns. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...pingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
