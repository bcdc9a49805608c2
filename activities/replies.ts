import { Context } from '@temporalio/activity';

import { nameBasedUuid, replyRouting, RoutingError, standardBusinessDocument } from '../domain/peppol/envelope';
import type { ReplyOutcome, ReplyRef } from '../domain/reply-events';
import { splitFindings } from '../platform/official-validator';
import { findCompany } from '../services/companies';
import { replySenderRefusal } from '../services/documents/verified-sender';
import { RuleError } from '../services/errors';
import {
  claimInvoiceResponse,
  draftInvoiceResponse,
  responseSendStart,
  type ResponseClaim,
} from '../services/replies/invoice-responses';
import { planMessageLevelStatus } from '../services/replies/message-level-status';
import { recordReplyOutcome, storedReply } from '../services/replies/outcomes';
import { describeRefusal } from './official-validation';
import { permanentDeliveryFailure } from './delivery-attempt';
import type { ResponseSendStart } from '../workflows/shared';
import type { ActivityDependencies } from './dependencies';
import { sendByAs4 } from './peppol-delivery';

/** What the validating step of a reply learns: why the official rules refuse it, and how it travels. */
export interface ReplyVerdict {
  refusal: string | null;
  channel: 'peppol' | 'none';
}

/**
 * The replies our companies send about received documents, Invoice
 * Responses and Message Level Statuses alike: validated with the official
 * rules, sent by the one AS4 step documents use, and their outcome recorded.
 */
type ReplyDependencies = Pick<
  ActivityDependencies,
  'store' | 'logger' | 'validator' | 'peppol' | 'deliveryWindows' | 'fanOut'
>;

export function replyActivities(deps: ReplyDependencies) {
  const { store, logger, peppol } = deps;
  return {
    /** A response's send workflow's first step: the drafted response claimed for its document, or refused. */
    async claimInvoiceResponse(responseId: string, previousResponseId: string | null): Promise<ResponseClaim> {
      return claimInvoiceResponse(store, responseId, previousResponseId);
    },

    /** The send's first step: also refuses an Invoice Response its document was never given (it lost its race), whatever started its workflow. */
    validateReply: (reply: ReplyRef): Promise<ReplyVerdict> => validateReply(deps, reply),

    /** The one reply-sending step: the stored UBL in its envelope, by AS4 to the receiver its SMP names for the reply's document type. */
    sendReplyOnPeppol: (reply: ReplyRef): Promise<ReplyOutcome> => sendReplyOnPeppol(deps, reply),

    async recordReplyOutcome(reply: ReplyRef, outcome: ReplyOutcome): Promise<void> {
      await recordReplyOutcome({ store, fanOut: deps.fanOut, logger }, reply, outcome);
    },

    /** The MLS the received message's sender asked for, stored to send; null when none is owed. */
    async planMessageLevelStatus(documentId: string): Promise<ReplyRef | null> {
      return planMessageLevelStatus({ store, logger, ourSeat: () => peppol.accessPoint.seat() }, documentId);
    },

    /**
     * A company with `auto_acknowledge` answers every received invoice and credit note with `AB`, as if it
     * had posted it; one that was answered already, or whose seller takes no responses, is left as it is.
     * The response is drafted here; the receive workflow starts its send workflow as its child, with this,
     * whose first step claims it.
     */
    acknowledgeOnReceipt: (documentId: string): Promise<ResponseSendStart | null> =>
      acknowledgeOnReceipt(deps, documentId),
  };
}

async function replyOf(store: ReplyDependencies['store'], reply: ReplyRef) {
  const stored = await storedReply(store, reply);
  if (!stored)
    throw permanentDeliveryFailure(
      `The ${reply.kind === 'mls' ? 'Message Level Status' : 'Invoice Response'} ${reply.id} does not exist.`,
    );
  return stored;
}

async function validateReply({ store, validator }: ReplyDependencies, reply: ReplyRef): Promise<ReplyVerdict> {
  const stored = await replyOf(store, reply);
  if (!stored.given)
    return {
      refusal: `Invoice Response ${reply.id} was never given: another response was given for the document at the same moment, or its request failed before it was given`,
      channel: stored.channel,
    };
  const report = await validator.validate(stored.ubl);
  if (report.problem)
    return {
      refusal: `The reply could not be validated (${report.problem.code}): ${report.problem.message}`,
      channel: stored.channel,
    };
  const { fatal } = splitFindings(report.findings);
  return { refusal: fatal.length === 0 ? null : describeRefusal(report.rule_set, fatal), channel: stored.channel };
}

async function sendReplyOnPeppol({ store, logger, peppol }: ReplyDependencies, reply: ReplyRef): Promise<ReplyOutcome> {
  const stored = await replyOf(store, reply);
  const messageId = `${reply.id}@einvoice`;
  if (stored.status === 'sent')
    return {
      status: 'sent',
      messageId: stored.as4MessageId ?? messageId,
      description: `Sent by AS4; message id ${messageId}`,
    };
  const routing = routingOfReply(stored);
  // An Invoice Response speaks for the company under our certificate (an MLS for our access point).
  if (reply.kind !== 'mls') {
    const company = await store.companies.findById(stored.companyId).lean();
    const refusal = company
      ? replySenderRefusal(company, routing.sender)
      : `Company ${stored.companyId} does not exist.`;
    if (refusal) throw permanentDeliveryFailure(`Not sent on Peppol: ${refusal}`);
  }
  try {
    const receipt = await sendByAs4(
      { store, peppol },
      {
        routing,
        deliverable: stored.service,
        messageId,
        // The same envelope on every attempt: its id and time come from the reply.
        sbd: standardBusinessDocument(stored.ubl, routing, {
          instanceId: nameBasedUuid(reply.id),
          createdAt: stored.createdAt,
        }),
        what: reply.kind === 'mls' ? 'Message Level Status' : 'Invoice Response',
        endUserId: stored.companyId,
      },
    );
    return {
      status: 'sent',
      messageId,
      description: `Sent by AS4 to ${routing.receiver} (access point ${receipt.receiverSeat}); message id ${messageId}, receipt ${receipt.receiptMessageId}`,
    };
  } catch (err) {
    if (!Context.current().cancellationSignal.aborted)
      logger.warn({ err, reply, attempt: Context.current().info.attempt }, 'reply send attempt failed');
    throw err;
  }
}

function routingOfReply(stored: Awaited<ReturnType<typeof replyOf>>) {
  try {
    return replyRouting(stored.ubl, stored.service, stored.countryC1);
  } catch (err) {
    if (err instanceof RoutingError)
      throw permanentDeliveryFailure(`The reply cannot be routed on Peppol: ${err.message}.`);
    throw err;
  }
}

async function acknowledgeOnReceipt(deps: ReplyDependencies, documentId: string): Promise<ResponseSendStart | null> {
  const { store, logger, peppol } = deps;
  const document = await store.documents.findById(documentId).lean();
  if (!document?.received || document.response || document.type === 'other') return null;
  const company = await findCompany(store, document.company_id);
  if (!company?.auto_acknowledge) return null;
  try {
    const draft = await draftInvoiceResponse(
      { store, lookup: peppol.lookup, logger, deliveryWindowSeconds: deps.deliveryWindows.live },
      document,
      company,
      { code: 'AB', reasons: [], actions: [], note: null },
    );
    return responseSendStart(draft.row, draft.previousResponseId, deps.deliveryWindows.live);
  } catch (err) {
    if (!(err instanceof RuleError)) throw err;
    logger.info({ documentId, reason: err.message }, 'no automatic acknowledgement');
    return null;
  }
}
