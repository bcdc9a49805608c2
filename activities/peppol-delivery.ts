import { ApplicationFailure, Context } from '@temporalio/activity';

import { ciiOfUbl } from '../domain/cii/write';
import {
  billingDeliverable,
  BIS_BILLING_CII_SERVICE,
  PEPPOL_AS4,
  type Deliverable,
} from '../domain/peppol/capabilities';
import {
  documentAs4MessageId,
  nameBasedUuid,
  RoutingError,
  routingOf,
  standardBusinessDocument,
  type EnvelopeRouting,
  type PeppolRouting,
} from '../domain/peppol/envelope';
import { as4Sends } from '../platform/metrics';
import { As4SendError, sendRequest, type As4Receipt } from '../platform/peppol/access-point';
import { receivingEndpoint } from '../platform/peppol/lookup';
import { postedCiiOf } from '../services/documents/queries';
import { liveSenderRefusal } from '../services/documents/verified-sender';
import { recordReportingItem } from '../services/reporting/items';
import { documentToSend, heartbeating, noteSent, permanentDeliveryFailure, recordRetry } from './delivery-attempt';
import type { ActivityDependencies } from './dependencies';
import type { DeliveryReceipt } from './lifecycle';
import type { DocumentRow } from '../store/documents';

/** One message to send on Peppol: its routing, what the receiver is looked up for, the AS4 message id and the SBD. */
export interface As4Message {
  routing: EnvelopeRouting;
  deliverable: Deliverable;
  messageId: string;
  sbd: string;
  /** What it is, for a refusal: "document", "Invoice Response", … */
  what: string;
  /** Our company it is sent for: the end user of the Peppol reporting item. */
  endUserId: string;
  /** Sent instead when the receiver takes this deliverable and not the message's (a document as CII): made only then. */
  alternative?: { deliverable: Deliverable; make: () => Promise<{ routing: EnvelopeRouting; sbd: string } | null> };
}

/** The receipt, and whether the alternative was what went. */
export type As4Sent = As4Receipt & { alternative: boolean };

/**
 * The receiver's endpoint for the first of the deliverables it takes, from a kept lookup when there is one. A
 * refusal ends the send for good, so it must rest on what the SML and SMP say now: a kept answer that refuses is
 * forgotten and asked again.
 */
async function endpointNow(peppol: ActivityDependencies['peppol'], receiver: string, deliverable: Deliverable[]) {
  const kept = peppol.lookup.holds(receiver);
  const endpoint = await receivingEndpoint(peppol.lookup, receiver, deliverable, new Date());
  if (!kept || !('refusal' in endpoint)) return endpoint;
  peppol.lookup.forget(receiver);
  return receivingEndpoint(peppol.lookup, receiver, deliverable, new Date());
}

/**
 * The AS4 step every Peppol send shares (documents, the replies about
 * received ones): the receiver looked up for the deliverable (SML, then SMP,
 * kept for a while; for the alternative's, when the receiver takes only that),
 * then our access point sends the SBD and answers with the receipt, which is counted for Peppol reporting. A receiver that cannot take
 * it, or an access point's final refusal, ends the send at once
 * (permanentDeliveryFailure); anything else is thrown as it is, for the
 * activity retry policy, and the receiver is looked up afresh next time.
 */
export async function sendByAs4(
  { store, peppol }: Pick<ActivityDependencies, 'store' | 'peppol'>,
  message: As4Message,
): Promise<As4Sent> {
  let routing = message.routing;
  let alternative = false;
  let receipt: As4Receipt;
  try {
    receipt = await heartbeating(async () => {
      const kinds = [message.deliverable, ...(message.alternative ? [message.alternative.deliverable] : [])];
      const endpoint = await endpointNow(peppol, message.routing.receiver, kinds);
      if ('refusal' in endpoint) throw permanentDeliveryFailure(endpoint.refusal);
      const made = endpoint.chosen === 1 ? await message.alternative!.make() : null;
      alternative = made !== null;
      const sent = made ?? { routing: message.routing, sbd: message.sbd };
      routing = sent.routing;
      return peppol.accessPoint.send(
        sendRequest(routing, { messageId: message.messageId, endpoint, sbd: sent.sbd }),
        Context.current().cancellationSignal,
      );
    });
  } catch (err) {
    as4Sends.inc({ outcome: failedSendOutcome(err) });
    // What the lookup kept may be what failed (an access point or certificate replaced since): the next try asks afresh.
    peppol.lookup.forget(routing.receiver);
    if (err instanceof As4SendError && err.permanent)
      throw permanentDeliveryFailure(`The receiving access point refused the ${message.what}: ${err.message}`);
    throw err;
  }
  as4Sends.inc({ outcome: 'delivered' });
  // Counted before the caller records the send: a crash in between sends again under the same message id
  // (the receiver keeps one copy) and finds the item recorded, never one without the other.
  await recordReportingItem(store, {
    as4MessageId: message.messageId,
    direction: 'sending',
    exchangedAt: receiptTime(receipt),
    c2Id: await peppol.accessPoint.seat(),
    c3Id: receipt.receiverSeat,
    documentType: routing.documentType,
    process: routing.process,
    transportProtocol: PEPPOL_AS4,
    c1Country: routing.countryC1,
    c4Country: null,
    endUserId: message.endUserId,
  });
  return { ...receipt, alternative };
}

/** refused: the receiving access point's final no; no_endpoint: the lookup found none for the deliverable (ends the send); failed: tried again. */
function failedSendOutcome(err: unknown): 'refused' | 'no_endpoint' | 'failed' {
  if (err instanceof As4SendError && err.permanent) return 'refused';
  return err instanceof ApplicationFailure && err.nonRetryable ? 'no_endpoint' : 'failed';
}

/** When the receiving access point signed its receipt; now when its timestamp cannot be read. */
function receiptTime(receipt: As4Receipt): Date {
  const time = new Date(receipt.receiptTimestamp);
  return Number.isNaN(time.getTime()) ? new Date() : time;
}

/**
 * A document as CII, for a receiver whose SMP lists BIS Billing in CII and not in UBL: the CII posted, for a
 * document that came as CII, else the one written from its UBL with the amounts it states. Null when the UBL is
 * no invoice to read: the UBL is then sent, and the receiver refuses it as it would.
 */
async function ciiOf(store: ActivityDependencies['store'], documentId: string, ubl: string): Promise<string | null> {
  const posted = await postedCiiOf(store, documentId);
  if (posted !== null) return posted;
  const written = ciiOfUbl(ubl);
  return 'cii' in written ? written.cii : null;
}

type PeppolDeliveryDependencies = Pick<ActivityDependencies, 'store' | 'logger' | 'peppol'>;

export function peppolDeliveryActivities(deps: PeppolDeliveryDependencies) {
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
    deliverOnPeppol: (documentId: string): Promise<DeliveryReceipt> => deliverOnPeppol(deps, documentId),
  };
}

const described = (messageId: string, detail = '') =>
  `Delivered on the Peppol network by AS4; message id ${messageId}${detail}`;

async function deliverOnPeppol(deps: PeppolDeliveryDependencies, documentId: string): Promise<DeliveryReceipt> {
  const { store, logger, peppol } = deps;
  const found = await documentToSend(store, documentId);
  if ('sent' in found) return { ...found.sent, description: described(found.sent.messageId) };
  const { document, ubl } = found;
  const routing = await verifiedRouting(store, document, ubl);
  const messageId = documentAs4MessageId(document._id);
  const instanceId = nameBasedUuid(document._id);
  // Before the send: the receiver's Message Level Status names this id (its DocumentReference), and may come back at once.
  await store.documents.updateOne({ _id: document._id }, { $set: { sbdh_instance_id: instanceId } });
  // The envelope is the same for every attempt: its id and time come from the document.
  const envelope = { instanceId, createdAt: document.created_at, ...(peppol.mls && { mls: peppol.mls }) };
  const receipt = await sendAttempt(deps, { document, ubl, routing, messageId, envelope });
  const sentAt = receiptTime(receipt);
  await noteSent(store, documentId, { sent_at: sentAt, message_id: messageId }, logger);
  logger.info(
    { documentId, messageId, receipt: receipt.receiptMessageId, receiver: routing.receiver },
    'delivered on Peppol',
  );
  return {
    messageId,
    sentAt: sentAt.toISOString(),
    description: described(
      messageId,
      ` to ${routing.receiver} (access point ${receipt.receiverSeat})${receipt.alternative ? ' as CII, the syntax it takes' : ''}; AS4 receipt ${receipt.receiptMessageId}`,
    ),
  };
}

/**
 * The document's routing, read from its UBL; its sender must be the one our certificate vouches for: the company's
 * verified Peppol id, checked again here for a document accepted before a change.
 */
async function verifiedRouting(
  store: PeppolDeliveryDependencies['store'],
  document: DocumentRow,
  ubl: string,
): Promise<PeppolRouting> {
  let routing: PeppolRouting;
  try {
    routing = routingOf(ubl);
  } catch (err) {
    if (err instanceof RoutingError)
      throw permanentDeliveryFailure(`The document cannot be routed on Peppol: ${err.message}.`);
    throw err;
  }
  const company = await store.companies.findById(document.company_id).lean();
  const refusal = company
    ? liveSenderRefusal(company, routing.sender)
    : `Company ${document.company_id} does not exist.`;
  if (refusal) throw permanentDeliveryFailure(`Not sent on Peppol: ${refusal}`);
  return routing;
}

interface Sending {
  document: DocumentRow;
  ubl: string;
  routing: PeppolRouting;
  messageId: string;
  envelope: Parameters<typeof standardBusinessDocument>[2];
}

/** One attempt by AS4; a failure that may pass is recorded on the document and thrown for the retry policy. */
async function sendAttempt({ store, logger, peppol }: PeppolDeliveryDependencies, sending: Sending) {
  const { document, ubl, routing, messageId, envelope } = sending;
  const deliverable = billingDeliverable(routing);
  try {
    return await sendByAs4(
      { store, peppol },
      {
        routing,
        deliverable,
        messageId,
        sbd: standardBusinessDocument(ubl, routing, envelope),
        // BIS Billing in CII for a receiver that takes only that; a PINT document has no CII form to go as.
        ...(deliverable === routing.kind && {
          alternative: {
            deliverable: BIS_BILLING_CII_SERVICE,
            make: async () => {
              const cii = await ciiOf(store, document._id, ubl);
              if (cii === null) return null;
              const ciiRouting = { ...routingOf(cii), receiver: routing.receiver };
              return { routing: ciiRouting, sbd: standardBusinessDocument(cii, ciiRouting, envelope) };
            },
          },
        }),
        what: 'document',
        endUserId: document.company_id,
      },
    );
  } catch (err) {
    if (err instanceof ApplicationFailure || Context.current().cancellationSignal.aborted) throw err;
    logger.warn(
      { err, documentId: document._id, attempt: Context.current().info.attempt },
      'Peppol delivery attempt failed; retrying',
    );
    await recordRetry(store, document._id, err, logger);
    throw err;
  }
}
