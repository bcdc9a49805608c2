import { MESSAGE_LEVEL_STATUS, INVOICE_RESPONSE, type PeppolService } from '../../domain/peppol/capabilities';
import {
  MLS_FAILED_EVENT,
  MLS_SENT_EVENT,
  RESPONSE_FAILED_EVENT,
  RESPONSE_SENT_EVENT,
  type ReplyOutcome,
  type ReplyRef,
} from '../../domain/reply-events';
import type { Logger } from '../../platform/logger';
import { repliesDone } from '../../platform/metrics';
import type { Store } from '../../store';
import { recordDocumentEvent } from '../events';
import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { responseContent, responsesOf, wasGiven } from './invoice-responses';

/**
 * What sending a reply needs of its row, whichever collection holds it, and
 * the one place its outcome is recorded: the row moves `queued` → `sent` |
 * `failed` by one conditional update, then the received document's event is
 * written under `<reply id>:final` (so a retried step writes it once).
 */

export interface StoredReply {
  ubl: string;
  service: PeppolService;
  countryC1: string;
  createdAt: Date;
  status: string;
  /** Peppol only when the answered document came by Peppol; a sandbox-received one is answered without a network. */
  channel: 'peppol' | 'none';
  as4MessageId: string | null;
  /** The company it is sent for. */
  companyId: string;
  /** False for an Invoice Response its document was never given (invoice-responses.ts `wasGiven`): it must not go out. */
  given: boolean;
}

export async function storedReply(store: Store, reply: ReplyRef): Promise<StoredReply | null> {
  if (reply.kind === 'mls') {
    const row = await store.messageLevelStatuses.findById(reply.id).lean();
    return (
      row && {
        ubl: row.ubl,
        service: MESSAGE_LEVEL_STATUS,
        countryC1: row.country_c1,
        createdAt: row.created_at,
        status: row.status,
        channel: 'peppol',
        as4MessageId: row.as4_message_id ?? null,
        companyId: row.company_id,
        given: true,
      }
    );
  }
  const row = await store.invoiceResponses.findById(reply.id).lean();
  if (!row) return null;
  const document = row.document_id
    ? await store.documents.findById(row.document_id, { received: 1, response: 1 }).lean()
    : null;
  return {
    ubl: row.ubl,
    service: INVOICE_RESPONSE,
    countryC1: row.country_c1 ?? '',
    createdAt: row.created_at,
    status: row.status,
    channel: document?.received?.source === 'peppol' ? 'peppol' : 'none',
    as4MessageId: row.as4_message_id ?? null,
    companyId: row.company_id,
    given: wasGiven(row, document),
  };
}

export interface OutcomeDependencies {
  store: Store;
  fanOut: FanOutDependencies;
  logger: Logger;
}

export async function recordReplyOutcome(
  deps: OutcomeDependencies,
  reply: ReplyRef,
  outcome: ReplyOutcome,
): Promise<void> {
  const { store } = deps;
  const now = new Date();
  const set =
    outcome.status === 'sent'
      ? { status: 'sent', as4_message_id: outcome.messageId, error_message: null, updated_at: now }
      : { status: 'failed', error_message: outcome.error, updated_at: now };
  // Only from queued: a late repeat of the step cannot turn a recorded outcome around.
  const moved =
    reply.kind === 'mls'
      ? await store.messageLevelStatuses.updateOne({ _id: reply.id, status: 'queued' }, { $set: set })
      : await store.invoiceResponses.updateOne({ _id: reply.id, status: 'queued' }, { $set: set });
  if (moved.modifiedCount === 1) repliesDone.inc({ kind: reply.kind, direction: 'sent', outcome: outcome.status });

  if (reply.kind === 'mls') {
    const row = await store.messageLevelStatuses.findById(reply.id).lean();
    if (!row) return;
    const recorded = await recordDocumentEvent(
      store,
      row,
      reply.id,
      {
        dedupeKey: `mls:${reply.id}:final`,
        type: row.status === 'sent' ? MLS_SENT_EVENT : MLS_FAILED_EVENT,
        data: {
          code: row.code,
          receiver_id: row.receiver_id,
          status: row.status,
          as4_message_id: row.as4_message_id ?? null,
          error_message: row.error_message ?? null,
          message:
            row.status === 'sent'
              ? `Message Level Status ${row.code} sent to ${row.receiver_id}`
              : `Message Level Status ${row.code} to ${row.receiver_id} not sent: ${row.error_message}`,
        },
      },
      deps.logger,
    );
    await fanOutSoon(deps.fanOut, recorded.event);
    return;
  }

  const row = await store.invoiceResponses.findById(reply.id).lean();
  if (!row?.document_id) return;
  if (row.status === 'failed') await releaseFailedResponse(store, row.document_id, row._id);
  const recorded = await recordDocumentEvent(
    store,
    row,
    row.document_id,
    {
      dedupeKey: `${reply.id}:final`,
      type: row.status === 'sent' ? RESPONSE_SENT_EVENT : RESPONSE_FAILED_EVENT,
      data: {
        response_id: row._id,
        ...responseContent(row),
        receiver_id: row.receiver_id ?? null,
        status: row.status,
        as4_message_id: row.as4_message_id ?? null,
        error_message: row.error_message ?? null,
        message:
          row.status === 'sent'
            ? outcome.status === 'sent'
              ? outcome.description
              : 'Invoice Response sent'
            : `Invoice Response not sent: ${row.error_message}`,
      },
    },
    deps.logger,
  );
  await fanOutSoon(deps.fanOut, recorded.event);
}

/**
 * The seller never got a failed response, so the process rules must not hold it against the next one: the
 * document's `response` goes back to the latest response that was sent (or none), if it still names the failed one.
 */
async function releaseFailedResponse(store: Store, documentId: string, failedId: string): Promise<void> {
  const earlier = (await responsesOf(store, documentId))
    .filter((response) => response._id !== failedId && response.direction === 'sent' && response.status === 'sent')
    .at(-1);
  const response = earlier
    ? {
        response_id: earlier._id,
        code: earlier.code,
        reasons: earlier.reasons,
        actions: earlier.actions,
        note: earlier.note ?? null,
        received_at: null,
        created_at: earlier.created_at,
      }
    : null;
  await store.documents.updateOne(
    { _id: documentId, 'response.response_id': failedId },
    { $set: { response, updated_at: new Date() } },
  );
}
