import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { acceptDocument, type Acceptance, type AcceptableDocument, type Charge, type Sender } from './accept';
import type { WriteBehind } from '../write-behind';
import { startSendWorkflow } from './dispatch';

export interface SubmissionDependencies extends FanOutDependencies {
  deliveryWindowSeconds: number;
  /** Outbox rows of started documents, removed behind the requests (startedDispatches). */
  started: WriteBehind<string>;
}

/**
 * Accepts a converted document and hands it to its send workflow. Once the
 * document is stored it is never lost: if the workflow cannot be started now,
 * the document stays in the outbox and the reconciler starts it.
 */
export async function submitDocument(
  deps: SubmissionDependencies,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  document: AcceptableDocument,
  idempotencyKey: string | undefined,
  charge?: Charge,
): Promise<Acceptance> {
  const accepted = await acceptDocument(deps.store, sender, company, document, idempotencyKey, { logger: deps.logger, ...(charge && { charge }) });
  if (!accepted.created) return accepted;
  await fanOutSoon(deps, accepted.event);
  try {
    await startSendWorkflow(deps.temporal, accepted.document, deps.deliveryWindowSeconds);
    deps.started.add(accepted.id);
  } catch (err) {
    deps.logger.error({ err, documentId: accepted.id }, 'could not start the send workflow; the reconciler will');
  }
  return accepted;
}
