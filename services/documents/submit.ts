import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { acceptDocument, type Acceptance, type AcceptableDocument, type Charge, type Sender } from './accept';
import type { WriteBehind } from '../write-behind';
import { startSendWorkflow } from './dispatch';
import { recordMoveEvent } from './lifecycle';
import type { DeliveryWindows } from '../../workflows/shared';

export interface SubmissionDependencies extends FanOutDependencies {
  deliveryWindows: DeliveryWindows;
  /** Outbox rows of started documents, removed behind the requests (startedDispatches). */
  started: WriteBehind<string>;
}

/**
 * Accepts a converted document, records its `document.queued` event (and
 * fans it out to webhooks) and hands it to its send workflow; the event and
 * the start need nothing of each other, so they run at once. Once the
 * document is stored it is never lost: if the event cannot be written or
 * the workflow cannot be started now, the document stays in the outbox and
 * the reconciler does what is missing.
 */
export async function submitDocument(
  deps: SubmissionDependencies,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  document: AcceptableDocument,
  idempotencyKey: string | undefined,
  charge?: Charge,
): Promise<Acceptance> {
  const accepted = await acceptDocument(deps.store, sender, company, document, idempotencyKey, charge && { charge });
  if (!accepted.created) return accepted;
  const message = `Accepted from key ${sender.keyPrefix}: checked against EN 16931 and Peppol BIS Billing 3.0, converted and queued`;
  const announced = recordMoveEvent(deps.store, accepted.document, 'accept', { message }, deps.logger).then(({ event }) => fanOutSoon(deps, event));
  const started = startSendWorkflow(deps.temporal, accepted.document, deps.deliveryWindows).then(
    () => true,
    (err: unknown) => {
      deps.logger.error({ err, documentId: accepted.id }, 'could not start the send workflow; the reconciler will');
      return false;
    },
  );
  // A failed event write fails the request before the outbox row goes, so the reconciler records the event.
  const [, workflowStarted] = await Promise.all([announced, started]);
  if (workflowStarted) deps.started.add(accepted.id);
  return accepted;
}
