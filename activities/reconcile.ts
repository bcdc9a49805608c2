import { reconcileDispatches } from '../services/documents/dispatch';
import type { ActivityDependencies } from './dependencies';

export function reconcileActivities({ store, temporal, deliveryWindows, logger }: Pick<ActivityDependencies, 'store' | 'temporal' | 'deliveryWindows' | 'logger'>) {
  return {
    /**
     * Finishes every dispatch the API could not (it stored a document, then
     * failed to start its workflow, or died half-way). Idempotent: the
     * workflow id is the document's and is never reused.
     */
    async startMissingSendWorkflows(): Promise<number> {
      return reconcileDispatches(store, temporal, deliveryWindows, logger);
    },
  };
}
