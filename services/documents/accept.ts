import { createHash } from 'node:crypto';

import { formatAmount, type CalculatedDocument } from '../../domain/documents/calculate';
import type { DocumentInput } from '../../domain/documents/input';
import { TRANSITIONS } from '../../domain/documents/lifecycle';
import type { Environment } from '../../domain/environment';
import { newSortableId } from '../../domain/ids';
import { documentsReached } from '../../platform/metrics';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import { releaseReservation } from '../credits/charges';

/**
 * Accepting a document: everything it consists of is stored before the row
 * that makes it exist, so a document is either wholly there or not at all.
 *
 *   1. the dispatch outbox row (the reconciler's to-do: start its workflow,
 *      or clean up after a request that died half-way);
 *   1b. for a live document, its price reserved from the workspace's credits
 *      (refused: nothing is kept; a request that dies later is released by
 *      the clean-up, as is the loser of an idempotency race);
 *   2. its write-once parts: content (input and UBL) and attachments;
 *   3. the document row, status `queued`: the commit point; its unique
 *      idempotency scope decides duplicate requests, also concurrent ones.
 *
 * The `document.queued` event (the accept move of the lifecycle) follows in
 * submit.ts, beside the workflow start.
 */

export interface Sender {
  accountId: string;
  accountEmail: string;
  keyPrefix: string;
  environment: Environment;
}

export interface AcceptableDocument {
  document: DocumentInput;
  totals: TotalsView;
  ubl: string;
  /** Attachment ids in the order of `document.attachments` (the UBL names them). */
  attachmentIds: string[];
}

export interface Acceptance {
  id: string;
  status: DocumentRow['status'];
  /** False when an earlier request with the same idempotency key created it. */
  created: boolean;
  document: DocumentRow;
}

/** Reserves what the document costs, once its id is known; throws to refuse it (nothing is kept then). */
export type Charge = (documentId: string) => Promise<void>;

/** Totals as stored and shown: decimal strings with 2 decimals. */
export type TotalsView = ReturnType<typeof totalsView>;

export function totalsView(calculated: CalculatedDocument) {
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
export const recipientOf = (document: DocumentInput, company: { email?: string | null }, accountEmail: string): string =>
  document.to.email ?? company.email ?? accountEmail;

const idempotencyScope = (environment: Environment, companyId: string, key: string) => `${environment}:${companyId}:${key}`;

/** The document an idempotency key already made, if any. */
export async function findByIdempotencyKey(store: Store, environment: Environment, companyId: string, key: string): Promise<DocumentRow | null> {
  return store.documents.findOne({ idempotency_scope: idempotencyScope(environment, companyId, key) }).lean();
}

export async function acceptDocument(
  store: Store,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  accepted: AcceptableDocument,
  idempotencyKey: string | undefined,
  options: { charge?: Charge; now?: Date } = {},
): Promise<Acceptance> {
  const { charge, now = new Date() } = options;
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(store, sender.environment, company._id, idempotencyKey);
    if (existing) return { id: existing._id, status: existing.status, created: false, document: existing };
  }
  const id = newSortableId('document', now.getTime());
  const { document } = accepted;
  const { attachments = [] } = document;

  await insertRow(store.dispatches, { _id: id, charged_workspace_id: charge ? company.workspace_id : null, created_at: now });
  if (charge) {
    try {
      await charge(id);
    } catch (err) {
      await store.dispatches.deleteOne({ _id: id });
      throw err;
    }
  }
  await insertRow(store.contents, {
    _id: id,
    input: storedInput(document),
    ubl: accepted.ubl,
    created_at: now,
  });
  if (attachments.length > 0) {
    await store.attachments.insertMany(
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
  }
  const row = {
    _id: id,
    company_id: company._id,
    workspace_id: company.workspace_id,
    account_id: sender.accountId,
    key_prefix: sender.keyPrefix,
    environment: sender.environment,
    direction: 'sent' as const,
    type: document.type,
    number: document.number,
    issue_date: document.issue_date,
    due_date: document.due_date ?? null,
    status: TRANSITIONS.accept.to,
    idempotency_scope: idempotencyScope(sender.environment, company._id, idempotencyKey ?? `doc:${id}`),
    idempotency_key: idempotencyKey ?? null,
    currency: document.currency,
    totals: accepted.totals,
    recipient_email: recipientOf(document, company, sender.accountEmail),
    attach_pdf: document.attach_pdf === true,
    sent_at: null,
    message_id: null,
    error_message: null,
    rule_set: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await insertRow(store.documents, row);
  } catch (err) {
    if (!isDuplicateKey(err) || !idempotencyKey) throw err;
    // A concurrent request with the same key won: this one's parts go, its document answers.
    await discardParts(store, id);
    const existing = await findByIdempotencyKey(store, sender.environment, company._id, idempotencyKey);
    if (!existing) throw err;
    return { id: existing._id, status: existing.status, created: false, document: existing };
  }
  documentsReached.inc({ direction: 'sent', status: row.status });
  return { id, status: row.status, created: true, document: row };
}

/** Removes what a request stored before its document row failed to appear, and gives back its reservation; idempotent. */
export async function discardParts(store: Store, documentId: string): Promise<void> {
  // The outbox row goes last: while it is there, the reconciler finishes this clean-up.
  const dispatch = await store.dispatches.findById(documentId).lean();
  if (dispatch?.charged_workspace_id) await releaseReservation(store, dispatch.charged_workspace_id, documentId);
  await store.attachments.deleteMany({ document_id: documentId });
  await store.contents.deleteOne({ _id: documentId });
  await store.dispatches.deleteOne({ _id: documentId });
}
