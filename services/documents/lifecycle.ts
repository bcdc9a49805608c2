import { allows, IllegalMoveError, moveKey, TRANSITIONS, type DocumentMove } from '../../domain/documents/lifecycle';
import type { Logger } from '../../platform/logger';
import { documentsReached } from '../../platform/metrics';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import type { EventRow } from '../../store/events';
import { recordDocumentEvent } from '../events';

/**
 * The one operation that moves a document along the lifecycle table
 * (domain/documents/lifecycle.ts) and records the move's event. Every writer
 * of a document's status goes through it: the API when it accepts a
 * document, the send workflow (through its activities) for every later move.
 *
 * - A move happens only from the statuses the table allows. The status
 *   changes by one conditional update of the document row, which is atomic
 *   on MongoDB and on the embedded FerretDB build, so of two racing moves
 *   (a retried activity, a late attempt) at most one applies.
 * - Repeating a move that has happened changes nothing: it only makes sure
 *   its event exists (the event's dedupe key is the move's key), so a crash
 *   between the two writes is repaired by the retry.
 * - A move from any other status fails with IllegalMoveError; nothing is written.
 *
 * Besides the moves, only `recordSent` (below) writes the row, while it is `sending`.
 */

export interface MoveDetails {
  /** What happened, for the history (written from the moved row when it depends on the document, e.g. its environment). */
  message?: string | ((document: DocumentRow) => string);
  error_message?: string;
  /** The delivery attempt a retry follows. */
  attempt?: number;
  /** Fields the move sets on the row besides the status (e.g. what the delivery channel answered). */
  set?: Partial<Pick<DocumentRow, 'sent_at' | 'message_id' | 'rule_set'>>;
}

export interface MoveResult {
  /** False when the move had happened before (a repeat). */
  moved: boolean;
  document: DocumentRow;
  /** The move's event (recorded by this call, or by the call that made the move before). */
  event: EventRow;
}

type LaterMove = Exclude<DocumentMove, 'accept'>;

export async function moveDocument(
  store: Store,
  documentId: string,
  move: LaterMove,
  details: MoveDetails = {},
  logger?: Logger,
): Promise<MoveResult> {
  const transition = TRANSITIONS[move];
  const changesStatus = !(transition.from as readonly string[]).includes(transition.to);
  const updated = changesStatus
    ? await store.documents
        .findOneAndUpdate(
          { _id: documentId, status: { $in: [...transition.from] } },
          {
            $set: {
              status: transition.to,
              updated_at: new Date(),
              ...(details.error_message !== undefined && { error_message: details.error_message }),
              ...details.set,
            },
          },
          { returnDocument: 'after' },
        )
        .lean()
    : null;
  const document = updated ?? (await store.documents.findById(documentId).lean());
  if (!document) throw new Error(`document ${documentId} does not exist`);
  const repeat = !updated && (changesStatus ? document.status === transition.to : allows(move, document.status));
  if (!updated && !repeat) throw new IllegalMoveError(documentId, move, document.status);
  if (updated) documentsReached.inc({ direction: 'sent', status: transition.to });
  const recorded = await recordMoveEvent(store, document, move, details, logger);
  return { moved: updated !== null || (!changesStatus && recorded.created), document, event: recorded.event };
}

/** The event a move raises, recorded once per move key. */
export function recordMoveEvent(
  store: Store,
  document: DocumentRow,
  move: DocumentMove,
  details: MoveDetails,
  logger?: Logger,
) {
  const transition = TRANSITIONS[move];
  return recordDocumentEvent(
    store,
    document,
    document._id,
    {
      dedupeKey: moveKey(document._id, move, details.attempt),
      type: transition.event,
      data: {
        status: transition.to,
        number: document.number,
        error_message: details.error_message ?? null,
        ...(details.attempt !== undefined && { attempt: details.attempt }),
        ...(details.message !== undefined && {
          message: typeof details.message === 'function' ? details.message(document) : details.message,
        }),
      },
    },
    logger,
  );
}

/**
 * Records that the delivery channel accepted the document, right after it
 * did, while it is `sending`: a retried attempt finds the record and does not
 * send again. (The one duplicate left possible is a crash in between; it
 * carries the same Message-ID.) Not a move: the status stays `sending` until
 * the deliver move.
 */
export async function recordSent(
  store: Store,
  documentId: string,
  sent: { sent_at: Date; message_id: string },
): Promise<void> {
  await store.documents.updateOne({ _id: documentId, status: TRANSITIONS.send.to, sent_at: null }, { $set: sent });
}
