import { ApplicationFailure, Context } from '@temporalio/activity';

import { nameBasedUuid, RoutingError, routingOf, standardBusinessDocument, type PeppolRouting } from '../domain/peppol-envelope';
import { As4SendError, sendRequest } from '../platform/peppol-access-point';
import { receivingEndpoint } from '../platform/peppol-lookup';
import { recordSent } from '../services/documents/lifecycle';
import { documentToSend, heartbeating, permanentDeliveryFailure, recordRetry } from './delivery-attempt';
import type { ActivityDependencies } from './dependencies';
import type { DeliveryReceipt } from './lifecycle';

/** One AS4 message id per document, the same for every attempt: a receiver that got an earlier attempt keeps one copy. */
const as4MessageId = (documentId: string) => `${documentId}@einvoice`;

export function peppolDeliveryActivities({ store, logger, peppol }: ActivityDependencies) {
  const described = (messageId: string, detail = '') => `Delivered on the Peppol network by AS4; message id ${messageId}${detail}`;

  return {
    /**
     * Live delivery (reference part E): the sender and receiver are read from
     * the stored UBL, the receiver is looked up (SML, then SMP) and must
     * accept the document type under the billing process, and our access
     * point sends the UBL in its SBDH envelope by AS4. The receipt makes
     * `delivered`. A receiver that cannot take the document, or refuses it
     * for good, fails the document at once; a DNS, SMP or access point that
     * does not answer is tried again within the delivery window.
     */
    async deliverOnPeppol(documentId: string): Promise<DeliveryReceipt> {
      const found = await documentToSend(store, documentId);
      if ('sent' in found) return { ...found.sent, description: described(found.sent.messageId) };
      const { document, ubl } = found;
      let routing: PeppolRouting;
      try {
        routing = routingOf(ubl);
      } catch (err) {
        if (err instanceof RoutingError) throw permanentDeliveryFailure(`The document cannot be routed on Peppol: ${err.message}.`);
        throw err;
      }

      const messageId = as4MessageId(document._id);
      const instanceId = nameBasedUuid(document._id);
      // Before the send: the receiver's Message Level Status names this id (its DocumentReference), and may come back at once.
      await store.documents.updateOne({ _id: document._id }, { $set: { sbdh_instance_id: instanceId } });
      let receipt;
      try {
        receipt = await heartbeating(async () => {
          const endpoint = await receivingEndpoint(peppol.lookup, routing.receiver, routing.kind, new Date());
          if ('refusal' in endpoint) throw permanentDeliveryFailure(endpoint.refusal);
          return peppol.accessPoint.send(
            sendRequest(routing, {
              messageId,
              endpoint,
              // The envelope is the same for every attempt: its id and time come from the document.
              sbd: standardBusinessDocument(ubl, routing, { instanceId, createdAt: document.created_at, ...(peppol.mls && { mls: peppol.mls }) }),
            }),
            Context.current().cancellationSignal,
          );
        });
      } catch (err) {
        if (err instanceof As4SendError && err.permanent) throw permanentDeliveryFailure(`The receiving access point refused the document: ${err.message}`);
        if (err instanceof ApplicationFailure || Context.current().cancellationSignal.aborted) throw err;
        logger.warn({ err, documentId, attempt: Context.current().info.attempt }, 'Peppol delivery attempt failed; retrying');
        await recordRetry(store, documentId, err, logger);
        throw err;
      }
      const receiptTime = new Date(receipt.receiptTimestamp);
      const sentAt = Number.isNaN(receiptTime.getTime()) ? new Date() : receiptTime;
      await recordSent(store, documentId, { sent_at: sentAt, message_id: messageId });
      logger.info({ documentId, messageId, receipt: receipt.receiptMessageId, receiver: routing.receiver }, 'delivered on Peppol');
      return {
        messageId,
        sentAt: sentAt.toISOString(),
        description: described(messageId, ` to ${routing.receiver} (access point ${receipt.receiverSeat}); AS4 receipt ${receipt.receiptMessageId}`),
      };
    },
  };
}
