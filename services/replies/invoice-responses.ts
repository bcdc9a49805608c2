import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { newSortableId, sortableIdBound } from '../../domain/ids';
import {
  followUpRefusal,
  RESPONSE_CODE_NAMES,
  type InvoiceResponseContent,
  type ResponseCode,
} from '../../domain/peppol/invoice-response';
import { INVOICE_RESPONSE } from '../../domain/peppol/capabilities';
import { writeInvoiceResponse } from '../../domain/ubl/application-response';
import type { Logger } from '../../platform/logger';
import { receivingEndpoint, type PeppolLookup } from '../../platform/peppol/lookup';
import { startWithUpdate } from '../../platform/workflow-port';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import type { InvoiceResponseRow } from '../../store/invoice-responses';
import { insertRow } from '../../store/insert';
import { GIVE_UPDATE, responseSendOptions, type ResponseSendStart } from '../../workflows/shared';
import { ACCEPTANCE_DEADLINE_MS, UNACCEPTED_PARTS_GRACE_MS } from '../documents/accept';
import type { Company } from '../companies';
import { refusalOf, ruleErrorFrom, RuleError, type RuleRefusal } from '../errors';

/**
 * Our company answers a received invoice or credit note with a Peppol
 * Invoice Response (BIS Invoice Response 3, T111): checked against the
 * content rules and the process rules (OP-BR111), the seller looked up for
 * the Invoice Response document type when the document came by Peppol,
 * written as UBL, stored `queued` and unclaimed, then claimed and sent by its
 * own workflow (`response-<response id>`).
 */

export interface ResponseDependencies {
  store: Store;
  temporal: Client;
  lookup: PeppolLookup;
  logger: Logger;
  deliveryWindowSeconds: number;
}

type Clarifications = { code: string; text?: string | null }[];
/** A response as read (lean): its clarifications as plain arrays. */
export type InvoiceResponse = Omit<InvoiceResponseRow, 'reasons' | 'actions'> & {
  _id: string;
  reasons: Clarifications;
  actions: Clarifications;
};

/** What a response says, as the API and the events show it: every absent text and note as null. */
export function responseContent<Code extends string>(row: {
  code: Code;
  reasons: Clarifications;
  actions: Clarifications;
  note?: string | null;
}) {
  const withTextOrNull = (items: Clarifications) => items.map(({ code, text }) => ({ code, text: text ?? null }));
  return {
    code: row.code,
    reasons: withTextOrNull(row.reasons),
    actions: withTextOrNull(row.actions),
    note: row.note ?? null,
  };
}

/** The 409 of a code the document's earlier responses forbid, naming the OP-BR111 rule. */
function refusedFollowUp(
  documentId: string,
  given: ResponseCode | undefined,
  next: ResponseCode,
): RuleError | undefined {
  const refusal = followUpRefusal(given ? [given] : [], next);
  return (
    refusal &&
    new RuleError('response_not_allowed', `${refusal.rule}: ${refusal.message}.`, {
      param: 'code',
      details: { rule: refusal.rule, document_id: documentId, previous_code: given ?? null },
    })
  );
}

/** The buyer's name and the invoice's number, date and type code, from the received document's JSON view. */
async function answeredParties(store: Store, document: DocumentRow & { _id: string }, company: Company) {
  const content = await store.contents.findById(document._id, { input: 1 }).lean();
  const view = (content?.input ?? null) as { from?: { name?: string } } | null;
  const received = document.received!;
  if (!received.sender_id) {
    throw new RuleError(
      'sender_cannot_receive_responses',
      `Document ${document._id} came without a sender participant id, so no Invoice Response can be addressed.`,
      {
        details: { looked_up: null },
      },
    );
  }
  return {
    sender: { participantId: received.receiver_id, name: company.name },
    receiver: { participantId: received.sender_id, name: view?.from?.name ?? received.sender_id },
    reference: {
      id: document.number,
      issueDate: document.issue_date || null,
      typeCode: document.type === 'credit_note' ? '381' : '380',
    },
  };
}

/**
 * A document that came by Peppol is answered on Peppol: the seller must be
 * registered for Invoice Responses now (what a later send would find). A DNS
 * or SMP that does not answer throws its lookup error (retryable).
 */
async function requireReachableSeller(deps: Pick<ResponseDependencies, 'lookup'>, seller: string): Promise<void> {
  const endpoint = await receivingEndpoint(deps.lookup, seller, INVOICE_RESPONSE, new Date());
  if ('refusal' in endpoint) {
    throw new RuleError(
      'sender_cannot_receive_responses',
      `${endpoint.refusal} Looked up: ${seller} for ${INVOICE_RESPONSE.name} (document type ${INVOICE_RESPONSE.documentType.value}, process ${INVOICE_RESPONSE.process.value}).`,
      {
        details: {
          receiver_id: seller,
          document_type: INVOICE_RESPONSE.documentType.value,
          process: INVOICE_RESPONSE.process.value,
          reason: endpoint.refusal,
        },
      },
    );
  }
}

/**
 * Gives the response (its content already checked by `contentProblems`, which the API turns into 400s per
 * field): drafted here, then its send workflow started with the `give` update (Update-with-Start), whose first
 * step claims it for the document and answers. Given only when the update says so; a response that lost a race
 * is refused with the rule, as the draft's own checks refuse.
 */
export async function giveInvoiceResponse(
  deps: ResponseDependencies,
  document: DocumentRow & { _id: string },
  company: Company,
  content: InvoiceResponseContent,
): Promise<InvoiceResponse> {
  const { row, previousResponseId } = await draftInvoiceResponse(deps, document, company, content);
  const start = responseSendStart(row, previousResponseId, deps.deliveryWindowSeconds);
  const claim = await startWithUpdate<'sendResponseWorkflow', ResponseClaim>(
    deps.temporal,
    'sendResponseWorkflow',
    GIVE_UPDATE,
    {
      ...responseSendOptions(start),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      input: start.input,
    },
  );
  if (!claim.given) throw ruleErrorFrom(claim.refusal);
  deps.logger.info({ documentId: document._id, responseId: row._id, code: content.code }, 'invoice response queued');
  return { ...row, claimed: true };
}

/**
 * Drafts the response to a document: judged against the document's current response by the process rules
 * (OP-BR111), its parties read, the seller looked up when the document came by Peppol, written as UBL and
 * stored `queued` and unclaimed, for its send workflow's first step to claim (`claimInvoiceResponse`). An
 * unclaimed row is never sent; one whose workflow never started is removed by the clean-up.
 */
export async function draftInvoiceResponse(
  deps: Omit<ResponseDependencies, 'temporal'>,
  document: DocumentRow & { _id: string },
  company: Company,
  content: InvoiceResponseContent,
): Promise<{ row: InvoiceResponse; previousResponseId: string | null }> {
  if (document.type === 'other' || !document.received) {
    throw new RuleError(
      'response_not_allowed',
      `Document ${document._id} is not an invoice or credit note this service could read; an Invoice Response names one.`,
      { details: { rule: 'OP-BR111-R014' } },
    );
  }
  const previous = document.response ?? null;
  const refusal = refusedFollowUp(document._id, previous?.code as ResponseCode | undefined, content.code);
  if (refusal) throw refusal;

  const parties = await answeredParties(deps.store, document, company);
  if (document.received.source === 'peppol') await requireReachableSeller(deps, parties.receiver.participantId);

  const now = new Date();
  const responseId = newSortableId('invoiceResponse', now.getTime());
  const ubl = writeInvoiceResponse({ id: responseId, issueDate: now.toISOString().slice(0, 10), ...parties, content });
  const row: InvoiceResponse = {
    _id: responseId,
    document_id: document._id,
    company_id: document.company_id,
    workspace_id: document.workspace_id,
    environment: document.environment,
    direction: 'sent',
    code: content.code,
    reasons: content.reasons,
    actions: content.actions,
    note: content.note,
    status: 'queued',
    sender_id: parties.sender.participantId,
    receiver_id: parties.receiver.participantId,
    referenced_number: document.number,
    referenced_type_code: parties.reference.typeCode,
    ubl,
    country_c1: company.country,
    as4_message_id: null,
    error_message: null,
    claimed: false,
    created_at: now,
    updated_at: now,
  };
  // The row type's arrays are mongoose's; the row written is plain data.
  await insertRow(deps.store.invoiceResponses, row as unknown as InvoiceResponseRow);
  return { row, previousResponseId: previous?.response_id ?? null };
}

/** How a response's claim ended: given (its document's response now), or refused with the rule that refused it. */
export type ResponseClaim = { given: true } | { given: false; refusal: RuleRefusal };

/**
 * The send workflow's first step: makes the drafted response its document's `response`, only while the
 * document's response is still the one the draft was judged against. Two givers racing for one document cannot
 * both pass the process rules against the same previous response: the document's `response` is replaced by one
 * conditional update, and the loser's row is removed. Safe to repeat (a local activity): a response its document
 * already names is given. A claim that comes later than ACCEPTANCE_DEADLINE_MS after the draft is refused.
 */
export async function claimInvoiceResponse(
  store: Store,
  responseId: string,
  previousResponseId: string | null,
  now = Date.now(),
): Promise<ResponseClaim> {
  const row = await store.invoiceResponses.findById(responseId, { ubl: 0 }).lean();
  const documentId = row?.document_id ?? null;
  const document = documentId ? await store.documents.findById(documentId, { response: 1 }).lean() : null;
  if (row && wasGiven(row, document)) {
    await markClaimed(store, responseId);
    return { given: true };
  }
  if (!row || !documentId || now - row.created_at.getTime() > ACCEPTANCE_DEADLINE_MS) {
    await store.invoiceResponses.deleteOne({ _id: responseId, claimed: false });
    const late = new RuleError(
      'response_not_allowed',
      `Invoice Response ${responseId} was not given in time; read the document's responses and give it again.`,
      { details: { document_id: documentId } },
    );
    return { given: false, refusal: refusalOf(late) };
  }
  // The document's current response was claimed: recorded before this one may take its place, so a claimed row is never mistaken for a loser.
  if (previousResponseId) await markClaimed(store, previousResponseId);
  const next = {
    response_id: responseId,
    code: row.code,
    reasons: row.reasons,
    actions: row.actions,
    note: row.note ?? null,
    received_at: null,
    created_at: row.created_at,
  };
  if (await replaceResponse(store, documentId, previousResponseId ? { response_id: previousResponseId } : null, next)) {
    await markClaimed(store, responseId);
    return { given: true };
  }
  await store.invoiceResponses.deleteOne({ _id: responseId, claimed: false });
  const code = (await store.documents.findById(documentId, { response: 1 }).lean())?.response?.code as
    ResponseCode | undefined;
  const refusal =
    refusedFollowUp(documentId, code, row.code) ??
    new RuleError(
      'response_not_allowed',
      `Another response (${code ? `${code}, ${RESPONSE_CODE_NAMES[code]}` : 'unknown'}) was given for document ${documentId} at the same moment; read its responses and try again.`,
      {
        param: 'code',
        details: { rule: 'OP-BR111-R012', document_id: documentId, previous_code: code ?? null },
      },
    );
  return { given: false, refusal: refusalOf(refusal) };
}

/** A document's current response, as stored on it. */
export type DocumentResponse = Pick<
  NonNullable<DocumentRow['response']>,
  'response_id' | 'code' | 'note' | 'received_at' | 'created_at'
> & { reasons: Clarifications; actions: Clarifications };

/**
 * Makes `next` the document's `response` only while it still is `previous` (none: null), by one conditional
 * update of the document: of two responses judged against the same previous one, given or received, only one
 * can become it. False when another did first.
 */
export async function replaceResponse(
  store: Store,
  documentId: string,
  previous: { response_id: string } | null,
  next: DocumentResponse,
): Promise<boolean> {
  const replaced = await store.documents.updateOne(
    { _id: documentId, ...(previous ? { 'response.response_id': previous.response_id } : { response: null }) },
    { $set: { response: next, updated_at: new Date() } },
  );
  return replaced.modifiedCount === 1;
}

/** Records that a response became its document's `response` (it stays claimed when the document moves on). */
async function markClaimed(store: Store, responseId: string): Promise<void> {
  await store.invoiceResponses.updateOne({ _id: responseId, claimed: false }, { $set: { claimed: true } });
}

/**
 * Whether a sent response may go out: it was claimed, or its document names it now (the claim landed and the
 * step stopped before marking it). Any other was never given.
 */
export function wasGiven(
  row: { _id: string; claimed?: boolean | null },
  document: { response?: { response_id: string } | null } | null,
): boolean {
  return row.claimed !== false || document?.response?.response_id === row._id;
}

/** How its send workflow is started, by whoever starts it: the API (Update-with-Start), or the receive workflow as its child. */
export function responseSendStart(
  row: InvoiceResponse,
  previousResponseId: string | null,
  deliveryWindowSeconds: number,
): ResponseSendStart {
  return {
    input: { responseId: row._id, previousResponseId, deliveryWindowSeconds },
    documentId: row.document_id!,
    companyId: row.company_id,
    workspaceId: row.workspace_id,
    environment: row.environment,
    summary: `Invoice Response ${row.code} to ${row.receiver_id ?? 'the seller'} about ${row.referenced_number} (${row.environment})`,
  };
}

/**
 * The `unclaimed-response-cleanup` chore: rows of responses never given (a request that died before its
 * workflow started, or a loser whose delete failed), older than the grace, unless their document names them.
 * Returns how many it removed.
 */
export async function discardUnclaimedResponses(store: Store, now = Date.now()): Promise<number> {
  const cutoff = sortableIdBound('invoiceResponse', now - UNACCEPTED_PARTS_GRACE_MS);
  const unclaimed = await store.invoiceResponses
    .find({ claimed: false, _id: { $lt: cutoff } }, { document_id: 1 })
    .sort({ _id: 1 })
    .limit(200)
    .lean();
  let removed = 0;
  for (const row of unclaimed) {
    const document = row.document_id ? await store.documents.findById(row.document_id, { response: 1 }).lean() : null;
    if (wasGiven({ _id: row._id, claimed: false }, document)) {
      await markClaimed(store, row._id);
      continue;
    }
    await store.invoiceResponses.deleteOne({ _id: row._id, claimed: false });
    removed += 1;
  }
  return removed;
}

/** Every response about a document, both directions, oldest first. */
export async function responsesOf(store: Store, documentId: string): Promise<InvoiceResponse[]> {
  return store.invoiceResponses.find({ document_id: documentId }).sort({ _id: 1 }).lean();
}
