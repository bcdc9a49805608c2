import { discardUnacceptedParts } from '../services/documents/accept';
import { discardUnclaimedResponses } from '../services/replies/invoice-responses';
import { deleteExpiredWindows } from '../services/rate-limits';
import { deleteEndedSignIns } from '../services/sessions';
import type { ActivityDependencies } from './dependencies';

export function maintenanceActivities({ store, logger }: Pick<ActivityDependencies, 'store' | 'logger'>) {
  return {
    /** Idempotent: deleting windows that already ended changes nothing when retried. */
    async deleteExpiredRateWindows(): Promise<number> {
      const deleted = await deleteExpiredWindows(store);
      logger.info({ deleted }, 'expired rate-limit windows deleted');
      return deleted;
    },

    async deleteEndedSignIns(): Promise<number> {
      const deleted = await deleteEndedSignIns(store);
      logger.info({ deleted }, 'ended sign-in links and sessions deleted');
      return deleted;
    },

    /** Idempotent: the parts of a document never recorded, removed again, are still gone. */
    async discardUnacceptedParts(): Promise<number> {
      const discarded = await discardUnacceptedParts(store);
      if (discarded > 0) logger.warn({ discarded }, 'removed the parts of documents whose requests did not complete');
      return discarded;
    },

    /** Idempotent: a row removed again is still gone; one its document names is kept (and marked claimed). */
    async discardUnclaimedResponses(): Promise<number> {
      const removed = await discardUnclaimedResponses(store);
      if (removed > 0) logger.warn({ removed }, 'removed Invoice Responses that were never given');
      return removed;
    },
  };
}
