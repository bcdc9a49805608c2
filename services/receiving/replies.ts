import { MLS_RECEIVED_EVENT, RESPONSE_RECEIVED_EVENT } from '../../domain/reply-events';
import { followUpRefusal, RESPONSE_CODE_NAMES, type ResponseCode } from '../../domain/peppol/invoice-response';
import type { ReadInvoiceResponse, ReadMessageLevelStatus } from '../../domain/ubl/application-response';
import type { Logger } from '../../platform/logger';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import { recordDocumentEvent } from '../events';
import { replaceResponse, responseContent } from '../replies/invoice-responses';
import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { sentDocumentOfInstance, UNMATCHED_MLS_OWNER } from './service-provider';
import { documentAs4MessageId } from '../../domain/peppol/envelope';

/**
 * Filing a received reply about a document we sent, and announcing it:
 * - an Invoice Response (BIS Invoice Response 3): the buyer's business
 *   answer, matched to the sent invoice or credit note it names (our company
 *   is its receiver, the buyer its sender, the number and type code its
 *   DocumentReference); kept in `invoice_responses` under the received
 *   message's id, so filing it again doubles nothing; an unmatched one is
 *   kept with `document_id: null` and announced all the same; one the process
 *   rules (OP-BR111) forbid after the document's response is kept `refused`;
 * - a Message Level Status (MLS 1.0): the receiving access point's word on
 *   our AS4 message, matched by the SBDH InstanceIdentifier it references.
 * Neither changes the document's delivery `status`: delivery and business
 * outcome are different facts.
 */

type ReplyKind = 'invoice_response' | 'mls';

export interface FiledReply {
  kind: ReplyKind;
  /** The sent document it answers, or null. */
  documentId: string | null;
  code: string;
}

/** A received message as the filing reads it. */
export interface ReplyMessage {
  _id: string;
  company_id: string;
  workspace_id: string;
  environment: 'sandbox' | 'live';
  sender_id?: string | null | undefined;
  receiver_id: string;
  message_id: string;
  received_at: Date;
  /** The sending access point's seat id (checked against its certificate by our access point); null for the sandbox. */
  access_point?: string | null | undefined;
}

const TYPE_CODES: Record<string, DocumentRow['type']> = { '380': 'invoice', '381': 'credit_note' };

const sameParticipant = (a: string | null | undefined, b: string | null | undefined) =>
  !a || !b || a.toLowerCase() === b.toLowerCase();

/**
 * The sent document an Invoice Response answers: the company's newest sent
 * document with that number, of the type its code names, whose buyer is the
 * response's sender (when both are known).
 */
async function answeredDocument(
  store: Store,
  message: ReplyMessage,
  response: ReadInvoiceResponse,
  buyerOf: (documentId: string) => Promise<string | null>,
) {
  const candidates = await store.documents
    .find({ company_id: message.company_id, environment: message.environment, number: response.reference.id })
    .sort({ _id: -1 })
    .limit(20)
    .lean();
  const type = response.reference.typeCode ? TYPE_CODES[response.reference.typeCode] : undefined;
  const sender = response.sender?.participantId ?? message.sender_id ?? null;
  for (const candidate of candidates) {
    if (candidate.direction === 'received' || (type && candidate.type !== type)) continue;
    if (sameParticipant(await buyerOf(candidate._id), sender)) return candidate;
  }
  return null;
}

export async function fileInvoiceResponse(
  store: Store,
  message: ReplyMessage,
  response: ReadInvoiceResponse,
  ubl: string,
  buyerOf: (documentId: string) => Promise<string | null>,
): Promise<FiledReply> {
  const existing = await store.invoiceResponses.findById(message._id).lean();
  const document = existing ? null : await answeredDocument(store, message, response, buyerOf);
  const documentId = existing ? (existing.document_id ?? null) : (document?._id ?? null);
  const now = new Date();
  if (!existing) {
    try {
      await insertRow(store.invoiceResponses, {
        _id: message._id,
        document_id: documentId,
        company_id: message.company_id,
        workspace_id: message.workspace_id,
        environment: message.environment,
        direction: 'received',
        code: response.code,
        reasons: response.reasons as never, // plain objects: the row type names mongoose arrays
        actions: response.actions as never,
        note: response.note,
        status: 'received',
        sender_id: response.sender?.participantId ?? message.sender_id ?? null,
        receiver_id: response.receiver?.participantId ?? message.receiver_id,
        referenced_number: response.reference.id,
        referenced_type_code: response.reference.typeCode,
        ubl,
        as4_message_id: message.message_id,
        error_message: null,
        created_at: message.received_at,
        updated_at: now,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  if (documentId && existing?.status !== 'refused') await applyReceivedResponse(store, documentId, message, response);
  return { kind: 'invoice_response', documentId, code: response.code };
}

/**
 * Makes a filed response the document's `response` when the process rules (OP-BR111, as for the responses we
 * give) allow it after the response the document has, by a conditional update on that response: of two racing
 * for one document, the second is judged against the first. One the rules forbid is kept, `refused` with the
 * rule; one that arrived before the document's response (filed late) is kept as history.
 */
async function applyReceivedResponse(
  store: Store,
  documentId: string,
  message: ReplyMessage,
  response: ReadInvoiceResponse,
): Promise<void> {
  const next = {
    response_id: message._id,
    code: response.code,
    reasons: response.reasons,
    actions: response.actions,
    note: response.note,
    received_at: message.received_at,
    created_at: message.received_at,
  };
  for (;;) {
    const document = await store.documents.findById(documentId, { response: 1 }).lean();
    if (!document) return;
    const current = document.response ?? null;
    if (current && (current.response_id === message._id || current.created_at > message.received_at)) return;
    const refusal = followUpRefusal(current ? [current.code as ResponseCode] : [], response.code);
    if (refusal) {
      await store.invoiceResponses.updateOne(
        { _id: message._id, status: 'received' },
        { $set: { status: 'refused', error_message: `${refusal.rule}: ${refusal.message}.`, updated_at: new Date() } },
      );
      return;
    }
    // Lost to another response that became the document's meanwhile: judged again against that one.
    if (await replaceResponse(store, documentId, current, next)) return;
  }
}

/**
 * Whether the MLS comes from the access point we delivered the document to (the C3 its receipt named): only
 * that access point can speak for the message. While the send is still under way the receipt is not recorded
 * yet, and filing is tried again.
 */
async function fromDeliveringAccessPoint(
  store: Store,
  message: ReplyMessage,
  document: Pick<DocumentRow, 'status'> & { _id: string },
): Promise<boolean> {
  const delivered = await store.reportingItems
    .findById(`sending:${documentAs4MessageId(document._id)}`, { c3_id: 1 })
    .lean();
  if (!delivered) {
    if (document.status === 'sending' || document.status === 'queued')
      throw new Error(`the delivery of ${document._id} that the Message Level Status answers is not recorded yet`);
    return false;
  }
  return !!message.access_point && message.access_point.toUpperCase() === delivered.c3_id.toUpperCase();
}

export async function fileMessageLevelStatus(
  store: Store,
  message: ReplyMessage,
  status: ReadMessageLevelStatus,
): Promise<FiledReply> {
  const document =
    message.company_id === UNMATCHED_MLS_OWNER.companyId
      ? null
      : await sentDocumentOfInstance(store, status.referencedInstanceId);
  if (
    document &&
    document.company_id === message.company_id &&
    !(await fromDeliveringAccessPoint(store, message, document))
  ) {
    // Not the access point's to say: kept with the unmatched ones, for the operator (ops mls unmatched).
    await store.receivedMessages.updateOne(
      { _id: message._id },
      { $set: { company_id: UNMATCHED_MLS_OWNER.companyId, workspace_id: UNMATCHED_MLS_OWNER.workspaceId } },
    );
    return { kind: 'mls', documentId: null, code: status.code };
  }
  if (document && document.company_id === message.company_id) {
    if (!document.mls || document.mls.received_at <= message.received_at) {
      const mls = {
        code: status.code,
        reasons: status.lines.map((line) => ({
          code: line.reason,
          description: line.description,
          line_id: line.lineId,
        })),
        description: status.description,
        received_at: message.received_at,
      };
      await store.documents.updateOne({ _id: document._id }, { $set: { mls, updated_at: new Date() } });
    }
    return { kind: 'mls', documentId: document._id, code: status.code };
  }
  return { kind: 'mls', documentId: null, code: status.code };
}

export interface AnnounceReplyDependencies {
  store: Store;
  fanOut: FanOutDependencies;
  logger: Logger;
}

const describeCode = (code: string) => `${code} (${RESPONSE_CODE_NAMES[code as ResponseCode] ?? 'unknown code'})`;

/** `document.response_received` for an Invoice Response (matched or not), `document.mls_received` for a matched MLS; once each. */
export async function announceReply(
  deps: AnnounceReplyDependencies,
  message: ReplyMessage,
  reply: FiledReply,
): Promise<void> {
  const { store } = deps;
  const document = reply.documentId ? await store.documents.findById(reply.documentId).lean() : null;
  if (reply.kind === 'invoice_response') {
    const row = await store.invoiceResponses.findById(message._id).lean();
    if (!row) throw new Error(`received Invoice Response ${message._id} is not filed`);
    const recorded = await recordDocumentEvent(
      store,
      row,
      row.document_id ?? null,
      {
        dedupeKey: `${message._id}:response_received`,
        type: RESPONSE_RECEIVED_EVENT,
        data: {
          response_id: row._id,
          matched: row.document_id !== null,
          status: document?.status ?? null,
          number: row.referenced_number,
          ...responseContent(row),
          sender_id: row.sender_id ?? null,
          message: !row.document_id
            ? `Invoice Response ${describeCode(row.code)} from ${row.sender_id ?? 'an unknown sender'} for ${row.referenced_number}, which matches no document sent by this company`
            : row.status === 'refused'
              ? `Invoice Response ${describeCode(row.code)} from ${row.sender_id ?? 'the buyer'}, kept but not the document's response: ${row.error_message}`
              : `Invoice Response ${describeCode(row.code)} from ${row.sender_id ?? 'the buyer'}`,
        },
      },
      deps.logger,
    );
    await fanOutSoon(deps.fanOut, recorded.event);
    return;
  }
  if (!document?.mls) {
    deps.logger.warn(
      { messageId: message.message_id, receivedMessage: message._id },
      'a Message Level Status names no document we sent; it is kept for the operator (ops mls unmatched)',
    );
    return;
  }
  const recorded = await recordDocumentEvent(
    store,
    document,
    document._id,
    {
      dedupeKey: `${message._id}:mls_received`,
      type: MLS_RECEIVED_EVENT,
      data: {
        status: document.status,
        number: document.number,
        code: document.mls.code,
        reasons: document.mls.reasons.map(({ code, description, line_id }) => ({
          code: code ?? '',
          description: description ?? '',
          line_id: line_id ?? '',
        })),
        description: document.mls.description ?? null,
        message: `Message Level Status ${document.mls.code} from the receiving access point${document.mls.description ? `: ${document.mls.description}` : ''}`,
      },
    },
    deps.logger,
  );
  await fanOutSoon(deps.fanOut, recorded.event);
}
