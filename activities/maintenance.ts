import { deleteExpiredWindows } from '../services/rate-limits';
import type { ActivityDependencies } from './dependencies';

export function maintenanceActivities({ store, logger }: Pick<ActivityDependencies, 'store' | 'logger'>) {
  return {
    /** Idempotent: deleting windows that already ended changes nothing when retried. */
    async deleteExpiredRateWindows(): Promise<number> {
      const deleted = await deleteExpiredWindows(store);
      logger.info({ deleted }, 'expired rate-limit windows deleted');
      return deleted;
    },
  };
}
