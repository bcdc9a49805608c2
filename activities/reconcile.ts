import { markWorkflowStarted, queuedWithoutWorkflow } from '../services/documents';
import { startSendWorkflow } from '../platform/temporal';
import type { ActivityDependencies } from './index';

/** A document younger than this may still be getting its workflow from the API. */
const GRACE_MS = 30_000;

export function reconcileActivities({ store, temporal, deliveryWindowSeconds, logger }: ActivityDependencies) {
  return {
    /**
     * Starts the send workflow of every queued document that has none (the
     * API wrote it, then failed to start its workflow). Idempotent: the
     * workflow id is the document's.
     */
    async startMissingSendWorkflows(): Promise<number> {
      const ids = await queuedWithoutWorkflow(store, GRACE_MS);
      for (const id of ids) {
        const document = await store.documents.findById(id).lean();
        if (!document) continue;
        await startSendWorkflow(temporal, document, deliveryWindowSeconds);
        await markWorkflowStarted(store, id);
        logger.warn({ documentId: id }, 'started a missing send workflow');
      }
      return ids.length;
    },
  };
}
