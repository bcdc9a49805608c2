import { WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { newSortableId, sortableIdBound } from '../../domain/ids';
import { followUpRefusal, RESPONSE_CODE_NAMES, type InvoiceResponseContent, type ResponseCode } from '../../domain/invoice-response';
import { INVOICE_RESPONSE } from '../../domain/peppol-capabilities';
import { writeInvoiceResponse } from '../../domain/ubl/application-response';
import type { Logger } from '../../platform/logger';
import { receivingEndpoint, type PeppolLookup } from '../../platform/peppol-lookup';
import { startWorkflow } from '../../platform/workflow-port';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import type { InvoiceResponseRow } from '../../store/invoice-responses';
import { insertRow } from '../../store/insert';
import { responseSendOptions, type ResponseSendStart } from '../../workflows/shared';
import type { Company } from '../companies';
import { RuleError } from '../errors';

/**
 * Our company answers a received invoice or credit note with a Peppol
 * Invoice Response (BIS Invoice Response 3, T111): checked against the
 * content rules and the process rules (OP-BR111), the seller looked up for
 * the Invoice Response document type when the document came by Peppol,
 * written as UBL, stored `queued` and sent by its own workflow
 * (`response-<response id>`).
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
export type InvoiceResponse = Omit<InvoiceResponseRow, 'reasons' | 'actions'> & { _id: string; reasons: Clarifications; actions: Clarifications };

/** What a response says, as the API and the events show it: every absent text and note as null. */
export function responseContent<Code extends string>(row: { code: Code; reasons: Clarifications; actions: Clarifications; note?: string | null }) {
  const shown = (items: Clarifications) => items.map(({ code, text }) => ({ code, text: text ?? null }));
  return { code: row.code, reasons: shown(row.reasons), actions: shown(row.actions), note: row.note ?? null };
}

/** The 409 of a code the document's earlier responses forbid, naming the OP-BR111 rule. */
function refusedFollowUp(documentId: string, given: ResponseCode | undefined, next: ResponseCode): RuleError | undefined {
  const refusal = followUpRefusal(given ? [given] : [], next);
  return refusal && new RuleError('response_not_allowed', `${refusal.rule}: ${refusal.message}.`, { param: 'code', details: { rule: refusal.rule, document_id: documentId, previous_code: given ?? null } });
}

/** The buyer's name and the invoice's number, date and type code, from the received document's JSON view. */
async function answeredParties(store: Store, document: DocumentRow & { _id: string }, company: Company) {
  const content = await store.contents.findById(document._id, { input: 1 }).lean();
  const view = (content?.input ?? null) as { from?: { name?: string } } | null;
  const received = document.received!;
  if (!received.sender_id) {
    throw new RuleError('sender_cannot_receive_responses', `Document ${document._id} came without a sender participant id, so no Invoice Response can be addressed.`, {
      details: { looked_up: null },
    });
  }
  return {
    sender: { participantId: received.receiver_id, name: company.name },
    receiver: { participantId: received.sender_id, name: view?.from?.name ?? received.sender_id },
    reference: { id: document.number, issueDate: document.issue_date || null, typeCode: document.type === 'credit_note' ? '381' : '380' },
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
    throw new RuleError('sender_cannot_receive_responses', `${endpoint.refusal} Looked up: ${seller} for ${INVOICE_RESPONSE.name} (document type ${INVOICE_RESPONSE.documentType.value}, process ${INVOICE_RESPONSE.process.value}).`, {
      details: { receiver_id: seller, document_type: INVOICE_RESPONSE.documentType.value, process: INVOICE_RESPONSE.process.value, reason: endpoint.refusal },
    });
  }
}

/**
 * Gives the response (its content already checked by `contentProblems`, which the API turns into 400s per
 * field) and starts its send workflow. The row is the outbox of that workflow: a start that fails leaves it
 * undispatched for the reconciler, and the response is given all the same.
 */
export async function giveInvoiceResponse(deps: ResponseDependencies, document: DocumentRow & { _id: string }, company: Company, content: InvoiceResponseContent): Promise<InvoiceResponse> {
  const row = await recordInvoiceResponse(deps, document, company, content);
  try {
    await startResponseWorkflow(deps, row);
  } catch (err) {
    // Stored and claimed, so given: the reconciler starts its workflow (it stays undispatched until then).
    deps.logger.warn({ err, documentId: document._id, responseId: row._id }, 'invoice response stored but its workflow not started; the reconciler will start it');
  }
  deps.logger.info({ documentId: document._id, responseId: row._id, code: content.code }, 'invoice response queued');
  return row;
}

/**
 * Records the response as its document's, stored `queued` and undispatched, for its caller to start its send
 * workflow (the API at once, the receive workflow as its child). Two givers racing for one document cannot both
 * pass the process rules against the same previous response: the document's `response` is replaced by one
 * conditional update on the response it had, and the loser's row is removed before it answers 409. The row is
 * inserted unclaimed and marked claimed only once the document names it; a row left unclaimed (its claim lost
 * or failed, the loser's delete failed, the process died in between) is never sent: the reconciler drops it
 * unless the document names it, and the send step refuses it.
 */
export async function recordInvoiceResponse(deps: Omit<ResponseDependencies, 'temporal'>, document: DocumentRow & { _id: string }, company: Company, content: InvoiceResponseContent): Promise<InvoiceResponse> {
  const { store } = deps;
  if (document.type === 'other' || !document.received) {
    throw new RuleError('response_not_allowed', `Document ${document._id} is not an invoice or credit note this service could read; an Invoice Response names one.`, { details: { rule: 'OP-BR111-R014' } });
  }
  const previous = document.response ?? null;
  const refusal = refusedFollowUp(document._id, previous?.code as ResponseCode | undefined, content.code);
  if (refusal) throw refusal;

  const parties = await answeredParties(store, document, company);
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
    dispatched: false,
    claimed: false,
    created_at: now,
    updated_at: now,
  };
  // The row type's arrays are mongoose's; the row written is plain data.
  await insertRow(store.invoiceResponses, row as unknown as InvoiceResponseRow);
  // The document's current response was claimed: recorded before this one may take its place, so a claimed row is never mistaken for a loser.
  if (previous) await markClaimed(store, previous.response_id);
  const claimed = await replaceResponse(store, document._id, previous, { response_id: responseId, code: content.code, reasons: content.reasons, actions: content.actions, note: content.note, received_at: null, created_at: now });
  if (!claimed) {
    await store.invoiceResponses.deleteOne({ _id: responseId });
    const current = await store.documents.findById(document._id, { response: 1 }).lean();
    const code = current?.response?.code as ResponseCode | undefined;
    throw (
      refusedFollowUp(document._id, code, content.code) ??
      new RuleError('response_not_allowed', `Another response (${code ? `${code}, ${RESPONSE_CODE_NAMES[code]}` : 'unknown'}) was given for document ${document._id} at the same moment; read its responses and try again.`, {
        param: 'code',
        details: { rule: 'OP-BR111-R012', document_id: document._id, previous_code: code ?? null },
      })
    );
  }
  // The document names it, so it is given: a mark that fails is the reconciler's to make.
  await markClaimed(store, responseId).catch((err: unknown) => deps.logger.warn({ err, documentId: document._id, responseId }, 'invoice response given but not marked claimed; the reconciler marks it'));
  return row;
}

/** A document's current response, as stored on it. */
export type DocumentResponse = Pick<NonNullable<DocumentRow['response']>, 'response_id' | 'code' | 'note' | 'received_at' | 'created_at'> & { reasons: Clarifications; actions: Clarifications };

/**
 * Makes `next` the document's `response` only while it still is `previous` (none: null), by one conditional
 * update of the document: of two responses judged against the same previous one, given or received, only one
 * can become it. False when another did first.
 */
export async function replaceResponse(store: Store, documentId: string, previous: { response_id: string } | null, next: DocumentResponse): Promise<boolean> {
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
 * request stopped before marking it). Any other was never given.
 */
export function wasGiven(row: { _id: string; claimed?: boolean | null }, document: { response?: { response_id: string } | null } | null): boolean {
  return row.claimed !== false || document?.response?.response_id === row._id;
}

/** How its send workflow is started, by whoever starts it. */
export function responseSendStart(row: InvoiceResponse, deliveryWindowSeconds: number): ResponseSendStart {
  return {
    input: { responseId: row._id, deliveryWindowSeconds },
    documentId: row.document_id!,
    companyId: row.company_id,
    workspaceId: row.workspace_id,
    environment: row.environment,
    summary: `Invoice Response ${row.code} to ${row.receiver_id ?? 'the seller'} about ${row.referenced_number} (${row.environment})`,
  };
}

/** Records that its send workflow runs: the reconciler leaves it alone from now on. */
export async function markResponseDispatched(store: Store, responseId: string): Promise<void> {
  await store.invoiceResponses.updateOne({ _id: responseId, dispatched: false }, { $set: { dispatched: true } });
}

/**
 * Its send workflow, found in the Web UI by the document, company and workspace; then the row is
 * marked dispatched. At most one workflow ever: its id is the response's and is never reused.
 */
export async function startResponseWorkflow(deps: Pick<ResponseDependencies, 'store' | 'temporal' | 'deliveryWindowSeconds'>, row: InvoiceResponse): Promise<void> {
  const start = responseSendStart(row, deps.deliveryWindowSeconds);
  await startWorkflow(deps.temporal, 'sendResponseWorkflow', { ...responseSendOptions(start), workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE, input: start.input });
  await markResponseDispatched(deps.store, row._id);
}

/** A response stored less than this long ago may still be having its workflow started by its request. */
const START_GRACE_MS = 30_000;

/**
 * The reconciler's pass (the `invoice-response-reconciler` schedule): starts the send workflow of every
 * response given whose request could not (the start failed, or the process died after the claim), oldest
 * first, and removes the rows of responses never given (an unclaimed row its document does not name: the
 * loser of a race whose delete failed, or a request that died or failed before its claim; after the grace, a
 * claim can no longer be under way). Returns how many it started.
 */
export async function reconcileResponses(deps: Pick<ResponseDependencies, 'store' | 'temporal' | 'deliveryWindowSeconds' | 'logger'>, options: { now?: number; batch?: number } = {}): Promise<number> {
  const cutoff = sortableIdBound('invoiceResponse', (options.now ?? Date.now()) - START_GRACE_MS);
  const due = await deps.store.invoiceResponses
    .find({ dispatched: false, _id: { $lt: cutoff } }, { ubl: 0 })
    .sort({ _id: 1 })
    .limit(options.batch ?? 200)
    .lean();
  let started = 0;
  for (const row of due) {
    if (row.claimed === false && !(await settleClaim(deps.store, row))) {
      await deps.store.invoiceResponses.deleteOne({ _id: row._id, claimed: false, dispatched: false });
      deps.logger.warn({ responseId: row._id, documentId: row.document_id }, 'removed an Invoice Response its document was never given');
      continue;
    }
    await startResponseWorkflow(deps, row as unknown as InvoiceResponse);
    started += 1;
    deps.logger.warn({ responseId: row._id, documentId: row.document_id }, 'started an Invoice Response workflow its request could not start');
  }
  return started;
}

/** An unclaimed row's claim as its document tells it: marked claimed and true when the document names it. */
async function settleClaim(store: Store, row: { _id: string; document_id?: string | null }): Promise<boolean> {
  const document = row.document_id ? await store.documents.findById(row.document_id, { response: 1 }).lean() : null;
  if (!wasGiven({ _id: row._id, claimed: false }, document)) return false;
  await markClaimed(store, row._id);
  return true;
}

/** Every response about a document, both directions, oldest first. */
export async function responsesOf(store: Store, documentId: string): Promise<InvoiceResponse[]> {
  return store.invoiceResponses.find({ document_id: documentId }).sort({ _id: 1 }).lean();
}
