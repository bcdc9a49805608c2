import { ApplicationFailure } from '@temporalio/activity';

import { IllegalMoveError, type DocumentMove } from '../domain/documents/lifecycle';
import { releaseReservation } from '../services/credits/charges';
import type { DocumentAcceptance } from '../domain/documents/acceptance';
import { recordAcceptance } from '../services/documents/accept';
import { moveDocument, type MoveDetails } from '../services/documents/lifecycle';
import { fanOutSoon } from '../services/webhooks/deliveries';
import { channelOf, ILLEGAL_MOVE_ERROR, type DeliveryChannel } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';

export interface DeliveryReceipt {
  messageId: string;
  /** When the channel accepted the document (ISO 8601). */
  sentAt: string;
  /** The history line of the delivery; absent: the sandbox email's. */
  description?: string;
}

/** The send workflow's moves: each one call of the lifecycle operation, safe to retry. */
export function lifecycleActivities({
  store,
  usage,
  logger,
  fanOut,
}: Pick<ActivityDependencies, 'store' | 'usage' | 'logger' | 'fanOut'>) {
  /**
   * The move, then its event to the webhooks subscribed to it, also when the
   * move is a repeat (a retry after a crash between the two): deliveries are
   * made once per event and webhook.
   */
  async function move(documentId: string, to: Exclude<DocumentMove, 'accept'>, details: MoveDetails) {
    try {
      const result = await moveDocument(store, documentId, to, details, logger);
      await fanOutSoon(fanOut, result.event);
      return result;
    } catch (err) {
      // Retrying cannot make an illegal move legal.
      if (err instanceof IllegalMoveError) throw ApplicationFailure.nonRetryable(err.message, ILLEGAL_MOVE_ERROR);
      throw err;
    }
  }

  return {
    /** The workflow's first step: the document recorded `queued` (or refused), for the request's update to answer. */
    recordAcceptance: (acceptance: DocumentAcceptance) => recordAcceptance(fanOut, acceptance),

    /**
     * `ruleSet`: the official rules that accepted it (absent in workflows
     * started before the validating step). Answers the channel the
     * document's environment delivers by.
     */
    async markSending(documentId: string, ruleSet?: string): Promise<{ channel: DeliveryChannel }> {
      const { document } = await move(documentId, 'send', {
        message: (moved) =>
          channelOf(moved.environment) === 'peppol'
            ? 'Sending on the Peppol network (AS4)'
            : 'Sending by email (sandbox)',
        ...(ruleSet && { set: { rule_set: ruleSet } }),
      });
      return { channel: channelOf(document.environment) };
    },

    async markDelivered(documentId: string, receipt: DeliveryReceipt): Promise<void> {
      const { moved, document } = await move(documentId, 'deliver', {
        message: receipt.description ?? `Delivered by email (sandbox); Message-ID ${receipt.messageId}`,
        set: { sent_at: new Date(receipt.sentAt), message_id: receipt.messageId },
      });
      // Counted by the call that made the move; a retried call finds it made.
      if (moved) usage.count(document.account_id, 'documents_sent');
    },

    /** A live document's reservation goes back to the workspace (once, also when this is retried). */
    async markFailed(documentId: string, errorMessage: string, ruleSet?: string): Promise<void> {
      const { document } = await move(documentId, 'fail', {
        error_message: errorMessage,
        message: errorMessage,
        ...(ruleSet && { set: { rule_set: ruleSet } }),
      });
      if (document.environment === 'live') await releaseReservation(store, document.workspace_id, document._id, logger);
    },
  };
}
