import { ApplicationFailure, Context } from '@temporalio/activity';

import { IllegalMoveError, TRANSITIONS } from '../domain/documents/lifecycle';
import type { Logger } from '../platform/logger';
import { moveDocument, recordSent } from '../services/documents/lifecycle';
import { findDocument, sendableContentOf } from '../services/documents/queries';
import type { Store } from '../store';
import type { DocumentRow } from '../store/documents';
import { delayAfterAttempt, PERMANENT_DELIVERY_ERROR } from '../workflows/shared';

/**
 * What every delivery channel's attempt shares: the document it sends, how
 * it says "never again", how it records that another attempt follows, and
 * its heartbeat.
 */

/** Ends delivery at once: the workflow fails the document with this message. */
export const permanentDeliveryFailure = (message: string) =>
  ApplicationFailure.nonRetryable(message, PERMANENT_DELIVERY_ERROR);

/** Records that this attempt failed and another will follow (unless the delivery window ends first). */
export async function recordRetry(store: Store, documentId: string, err: unknown, logger: Logger): Promise<void> {
  const { info } = Context.current();
  const nextAttemptAt = Date.now() + delayAfterAttempt(info.attempt);
  const windowEnds = info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs;
  if (info.scheduleToCloseTimeoutMs > 0 && nextAttemptAt >= windowEnds) return;
  try {
    await moveDocument(
      store,
      documentId,
      'retry',
      { attempt: info.attempt, error_message: (err as Error).message },
      logger,
    );
  } catch (recordError) {
    if (!(recordError instanceof IllegalMoveError)) throw recordError;
  }
}

const HEARTBEAT_EVERY_MS = 5_000;

/** Runs one attempt's talk with the far side, heartbeating meanwhile so a dead worker is noticed. */
export async function heartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  context.heartbeat();
  const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Notes on the row that the far side accepted the document, so an attempt run
 * again after a crash does not send it again. Once the far side has it, a
 * failed note must not fail the attempt, which would send it again: the
 * attempt still returns its receipt, which the workflow keeps in its history
 * and the deliver move writes to the row with retries of its own.
 */
export async function noteSent(
  store: Store,
  documentId: string,
  sent: { sent_at: Date; message_id: string },
  logger: Logger,
): Promise<void> {
  try {
    await heartbeating(() => recordSent(store, documentId, sent));
  } catch (err) {
    logger.warn(
      { err, documentId },
      'the document was accepted, but noting the send on it failed; the deliver move records it',
    );
  }
}

export type DocumentToSend =
  | { document: DocumentRow; ubl: string; input: Record<string, unknown> }
  /** An earlier attempt sent it (and crashed before reporting): this is what it recorded. */
  | { document: DocumentRow; sent: { messageId: string; sentAt: string } };

/** The document an attempt is to send, with its stored UBL and request; anything that makes sending impossible is final. */
export async function documentToSend(store: Store, documentId: string): Promise<DocumentToSend> {
  const document = await findDocument(store, documentId);
  if (!document) throw permanentDeliveryFailure(`Document ${documentId} does not exist.`);
  if (document.sent_at && document.message_id)
    return { document, sent: { messageId: document.message_id, sentAt: document.sent_at.toISOString() } };
  if (document.status !== TRANSITIONS.send.to)
    throw permanentDeliveryFailure(`Document ${documentId} is ${document.status}, not sending.`);
  const content = await sendableContentOf(store, documentId);
  if (!content?.ubl) throw permanentDeliveryFailure(`Document ${documentId} has no stored UBL.`);
  return { document, ...content };
}
