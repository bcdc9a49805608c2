import { newSortableId } from '../../domain/ids';
import { InsufficientCreditsError } from '../credits/charges';
import type { FanOutDependencies } from '../webhooks/deliveries';
import type { Charge } from '../../domain/documents/acceptance';
import {
  findByIdempotencyScope,
  idempotencyScope,
  stageDocument,
  type AcceptableDocument,
  type Sender,
} from './accept';
import { acceptBySendWorkflow } from './dispatch';
import { UnansweredUpdateError } from '../../platform/workflow-port';
import type { DeliveryWindows } from '../../workflows/shared';
import type { DocumentRow } from '../../store/documents';

export interface SubmissionDependencies extends Pick<FanOutDependencies, 'store' | 'temporal' | 'logger'> {
  deliveryWindows: DeliveryWindows;
}

export interface Submission {
  id: string;
  status: DocumentRow['status'];
  /** False when an earlier request with the same idempotency key created it. */
  created: boolean;
  /** A live document's workspace balance after its reservation. */
  balanceUnits?: number;
}

/**
 * Accepts a converted document: a repeated idempotency key answers with its document at once; otherwise the
 * document's parts are stored under a new id and its send workflow is started with the acceptance
 * (services/documents/dispatch.ts), whose first step records the document, its `document.queued` event and a
 * live document's reservation, and answers. The 202 follows that answer, so the document is readable by then.
 */
export async function submitDocument(
  deps: SubmissionDependencies,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  document: AcceptableDocument,
  idempotencyKey: string | undefined,
  charge?: Charge,
  /** The id it gets if it is new: a batch gives its documents ids in its order (they are submitted side by side). */
  id = newSortableId('document'),
): Promise<Submission> {
  if (idempotencyKey) {
    const existing = await findByIdempotencyScope(
      deps.store,
      idempotencyScope(sender.environment, company._id, idempotencyKey),
    );
    if (existing) return { id: existing._id, status: existing.status, created: false };
  }
  const acceptance = await stageDocument(deps.store, sender, company, document, { id, idempotencyKey, charge });
  const { row } = acceptance;
  const accepted = await acceptBySendWorkflow(deps.temporal, acceptance, deps.deliveryWindows);
  switch (accepted.outcome) {
    case 'accepted':
      return {
        id,
        status: row.status,
        created: true,
        ...(accepted.balanceUnits !== null && { balanceUnits: accepted.balanceUnits }),
      };
    case 'repeat':
      return { id: accepted.documentId, status: row.status, created: false };
    case 'unpaid':
      throw new InsufficientCreditsError(accepted.balanceUnits, accepted.priceUnits);
    case 'expired':
      throw new UnansweredUpdateError(`Document ${id} was not recorded in time and was dropped.`);
  }
}
