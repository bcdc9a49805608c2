import { createHash } from 'node:crypto';

import { formatAmount, type CalculatedDocument } from '../../domain/documents/calculate';
import type { DocumentInput } from '../../domain/documents/input';
import type {
  AcceptanceOutcome,
  AcceptedDocument,
  Charge,
  DocumentAcceptance,
  DocumentTotals,
} from '../../domain/documents/acceptance';
import type { Environment } from '../../domain/environment';
import { sortableIdBound } from '../../domain/ids';
import { documentsReached } from '../../platform/metrics';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import { InsufficientCreditsError, releaseReservation, reserveForDocument } from '../credits/charges';
import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { recordMoveEvent } from './lifecycle';

/**
 * Accepting a document, in two steps on the two sides of Update-with-Start
 * (services/documents/submit.ts):
 *
 *   1. the API stores its write-once parts under a new document id: content
 *      (input and UBL) and attachments, so the workflow's history carries
 *      the id, never the document (`stageDocument`);
 *   2. the send workflow's first step, `recordAcceptance`: a live document's
 *      price reserved from the workspace's credits (refused: its parts go,
 *      nothing is kept), then the document row, status `queued`: the commit
 *      point, whose unique idempotency scope decides duplicate requests, also
 *      concurrent ones (the loser's parts and reservation go); then its
 *      `document.queued` event. The update answers the API with the outcome.
 *
 * Parts whose document never appeared (the request died before its workflow
 * started) are removed by the `unaccepted-parts-cleanup` chore
 * (`discardUnacceptedParts`), long after any acceptance could still record them.
 */

export interface Sender {
  accountId: string;
  accountEmail: string;
  keyPrefix: string;
  environment: Environment;
}

export interface AcceptableDocument {
  document: DocumentInput;
  totals: DocumentTotals;
  ubl: string;
  /** A document posted as CII: the CII as posted (the UBL was written from it). */
  cii?: string;
  /** Attachment ids in the order of `document.attachments` (the UBL names them). */
  attachmentIds: string[];
}

/** Totals as stored and shown. */
export function totalsView(calculated: CalculatedDocument): DocumentTotals {
  const totals = calculated.totals;
  return {
    line_extension: formatAmount(totals.lineExtension),
    allowance_total: formatAmount(totals.allowanceTotal),
    charge_total: formatAmount(totals.chargeTotal),
    tax_exclusive: formatAmount(totals.taxExclusive),
    tax: formatAmount(totals.tax),
    tax_inclusive: formatAmount(totals.taxInclusive),
    prepaid: formatAmount(totals.prepaid),
    payable_rounding: formatAmount(totals.rounding),
    payable: formatAmount(totals.payable),
  };
}

/** The input as its content row keeps it: the attachments' bytes are in rows of their own. */
export function storedInput(document: DocumentInput) {
  const { attachments = [], ...rest } = document;
  return { ...rest, attachments: attachments.map(({ content: _content, ...meta }) => meta) };
}

/** Who a sandbox delivery goes to: the buyer's email, else the sending company's, else the sending account's. */
export const recipientOf = (
  document: DocumentInput,
  company: { email?: string | null },
  accountEmail: string,
): string => document.to.email ?? company.email ?? accountEmail;

/** Where an idempotency key is unique: `environment:company:key`, or `environment:company:doc:<id>` for a document sent without one. */
export const idempotencyScope = (environment: Environment, companyId: string, key: string) =>
  `${environment}:${companyId}:${key}`;

/** The document that holds an idempotency scope, if any (its id and status). */
export function findByIdempotencyScope(store: Store, scope: string) {
  return store.documents.findOne({ idempotency_scope: scope }, { _id: 1, status: 1 }).lean();
}

/**
 * An acceptance that runs this long after its request (its workflow's first task waited for a worker that long)
 * is refused; the parts' clean-up waits far longer, so it never removes the parts of a document still recorded.
 */
export const ACCEPTANCE_DEADLINE_MS = 60 * 60_000;
/** Parts older than this whose document does not exist are removed (`discardUnacceptedParts`). */
export const UNACCEPTED_PARTS_GRACE_MS = 24 * 60 * 60_000;

/**
 * Step 1, the API's: the document's write-once parts stored under its id, and the acceptance its send workflow is
 * started with.
 */
export async function stageDocument(
  store: Store,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  accepted: AcceptableDocument,
  options: { id: string; idempotencyKey?: string | undefined; charge?: Charge | undefined; now?: Date },
): Promise<DocumentAcceptance> {
  const { id, now = new Date() } = options;
  await storeParts(store, id, accepted, now);
  return {
    row: acceptedRow(sender, company, accepted, id, options.idempotencyKey),
    acceptedAt: now.toISOString(),
    charge: options.charge ?? null,
    message: `Accepted from key ${sender.keyPrefix}: checked against EN 16931 and Peppol BIS Billing 3.0, converted and queued`,
  };
}

/** The document row a request accepts, before its workflow records it. */
function acceptedRow(
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  accepted: AcceptableDocument,
  id: string,
  idempotencyKey: string | undefined,
): AcceptedDocument {
  const { document } = accepted;
  return {
    _id: id,
    company_id: company._id,
    workspace_id: company.workspace_id,
    account_id: sender.accountId,
    key_prefix: sender.keyPrefix,
    environment: sender.environment,
    direction: 'sent',
    type: document.type,
    number: document.number,
    issue_date: document.issue_date,
    due_date: document.due_date ?? null,
    status: 'queued',
    idempotency_scope: idempotencyScope(sender.environment, company._id, idempotencyKey ?? `doc:${id}`),
    idempotency_key: idempotencyKey ?? null,
    currency: document.currency,
    totals: accepted.totals,
    recipient_email: recipientOf(document, company, sender.accountEmail),
    counterparty: document.to.name ?? null,
    attach_pdf: document.attach_pdf === true,
    sent_at: null,
    message_id: null,
    error_message: null,
    rule_set: null,
  };
}

/** The document's write-once parts, under its id. */
async function storeParts(store: Store, id: string, accepted: AcceptableDocument, now = new Date()): Promise<void> {
  const { attachments = [] } = accepted.document;
  const content = insertRow(store.contents, {
    _id: id,
    input: storedInput(accepted.document),
    ubl: accepted.ubl,
    cii: accepted.cii ?? null,
    submitted: true,
    created_at: now,
  });
  const files =
    attachments.length === 0
      ? undefined
      : store.attachments.insertMany(
          attachments.map((attachment, position) => {
            const bytes = Buffer.from(attachment.content, 'base64');
            return {
              _id: accepted.attachmentIds[position],
              document_id: id,
              position,
              filename: attachment.filename,
              mime_type: attachment.mime_type,
              description: attachment.description ?? null,
              size_bytes: bytes.length,
              sha256: createHash('sha256').update(bytes).digest('hex'),
              content: attachment.content,
              created_at: now,
            };
          }),
        );
  await Promise.all([content, files]);
}

/**
 * Step 2, the send workflow's first (a local activity, so safe to repeat: the reservation is once per document,
 * a row this acceptance inserted before is found by its id, the event is once per move).
 */
export async function recordAcceptance(
  deps: FanOutDependencies,
  acceptance: DocumentAcceptance,
  now = Date.now(),
): Promise<AcceptanceOutcome> {
  const { store } = deps;
  const { row, charge } = acceptance;
  const acceptedAt = new Date(acceptance.acceptedAt);
  if (now - acceptedAt.getTime() > ACCEPTANCE_DEADLINE_MS && !(await store.documents.exists({ _id: row._id }))) {
    await discardParts(store, row._id, charge ? row.workspace_id : undefined);
    return { outcome: 'expired' };
  }
  let balanceUnits: number | null = null;
  if (charge) {
    try {
      ({ balanceUnits } = await reserveForDocument(
        { ...deps, settings: charge },
        {
          workspaceId: row.workspace_id,
          companyId: row.company_id,
          documentId: row._id,
          accountId: row.account_id,
          priceUnits: charge.priceUnits,
        },
      ));
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      await discardParts(store, row._id);
      return { outcome: 'unpaid', balanceUnits: err.balanceUnits, priceUnits: err.priceUnits };
    }
  }
  const document: DocumentRow & { _id: string } = { ...row, created_at: acceptedAt, updated_at: acceptedAt };
  try {
    await insertRow(store.documents, document);
    documentsReached.inc({ direction: 'sent', status: document.status });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    if (!(await store.documents.exists({ _id: row._id }))) {
      // A request with the same key won: this one's parts and reservation go, its document answers.
      const existing = await findByIdempotencyScope(store, row.idempotency_scope);
      if (!existing) throw err;
      await discardParts(store, row._id, charge ? row.workspace_id : undefined);
      return { outcome: 'repeat', documentId: existing._id };
    }
  }
  const { event } = await recordMoveEvent(store, document, 'accept', { message: acceptance.message }, deps.logger);
  await fanOutSoon(deps, event);
  return { outcome: 'accepted', documentId: row._id, balanceUnits };
}

/** Removes the parts of a document that was not recorded, and gives back its reservation when it was charged; idempotent. */
async function discardParts(store: Store, documentId: string, chargedWorkspaceId?: string): Promise<void> {
  if (chargedWorkspaceId) await releaseReservation(store, chargedWorkspaceId, documentId);
  await store.attachments.deleteMany({ document_id: documentId });
  await store.contents.deleteOne({ _id: documentId });
}

/**
 * The `unaccepted-parts-cleanup` chore: the parts the API stored for a document that was never recorded (its
 * request died before its workflow started, or the start failed), between the grace and a week before.
 * Returns how many documents' parts it removed.
 */
export async function discardUnacceptedParts(store: Store, now = Date.now()): Promise<number> {
  const range = {
    $gte: sortableIdBound('document', now - 7 * UNACCEPTED_PARTS_GRACE_MS),
    $lt: sortableIdBound('document', now - UNACCEPTED_PARTS_GRACE_MS),
  };
  const staged = await store.contents.find({ _id: range, submitted: true }, { _id: 1 }).limit(1000).lean();
  const ids = staged.map(({ _id }) => _id);
  const recorded = new Set(
    (await store.documents.find({ _id: { $in: ids } }, { _id: 1 }).lean()).map(({ _id }) => _id),
  );
  const unaccepted = ids.filter((id) => !recorded.has(id));
  for (const id of unaccepted) await discardParts(store, id);
  return unaccepted.length;
}
