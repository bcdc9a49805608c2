import { createHash } from 'node:crypto';

import { formatAmount, type CalculatedDocument } from '../domain/documents/calculate';
import type { DocumentInput } from '../domain/documents/input';
import type { Environment } from '../domain/environment';
import type { SendableDocument } from '../platform/temporal';
import { newSortableId } from '../domain/ids';
import type { Store } from '../store';
import type { DocumentStatus } from '../store/documents';
import { isDuplicateKey } from '../store/errors';

/**
 * Documents from acceptance to their final state. Every write is a single
 * document operation: the unique idempotency scope decides duplicate
 * requests, and history steps have ids derived from the document and the
 * step, so repeating a step (a retried activity) records nothing new.
 */

export type HistoryStep = 'created' | 'validated' | 'queued' | 'in_transit' | 'delivered' | 'failed';

/** The webhook event each step raises; `created` and `validated` raise none. */
const EVENT_OF_STEP: Partial<Record<HistoryStep, string>> = {
  queued: 'document.queued',
  in_transit: 'document.sending',
  delivered: 'document.delivered',
  failed: 'document.failed',
};

const eventId = (documentId: string, type: string) =>
  `evt_${createHash('sha256').update(`${documentId}:${type}`).digest('hex').slice(0, 24)}`;

export interface Sender {
  accountId: string;
  accountEmail: string;
  keyPrefix: string;
  workspaceId: string;
  environment: Environment;
}

export interface AcceptedDocument {
  id: string;
  status: DocumentStatus;
  /** False when an earlier request with the same idempotency key created it. */
  created: boolean;
  /** What starting its send workflow needs. */
  sendable: SendableDocument;
}

/** Totals as stored on a document and shown to clients: decimal strings with 2 decimals. */
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
    payable: formatAmount(totals.payable),
  };
}

async function recordStep(
  store: Store,
  document: { _id: string; company_id: string; workspace_id: string; number: string },
  step: HistoryStep,
  status: DocumentStatus,
  details: { message?: string; error_message?: string | null } = {},
): Promise<void> {
  const type = EVENT_OF_STEP[step];
  try {
    await store.history.create({
      _id: `${document._id}:${step}`,
      document_id: document._id,
      company_id: document.company_id,
      workspace_id: document.workspace_id,
      step,
      status,
      event_id: type ? eventId(document._id, type) : null,
      event_type: type ?? null,
      number: document.number,
      message: details.message ?? null,
      error_message: details.error_message ?? null,
      created_at: new Date(),
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

export async function acceptDocument(
  store: Store,
  sender: Sender,
  company: { _id: string; workspace_id: string; email?: string | null },
  document: DocumentInput,
  conversion: { calculated: CalculatedDocument; ubl: string; attachmentIds: string[] },
  idempotencyKey: string | undefined,
): Promise<AcceptedDocument> {
  const now = new Date();
  const id = newSortableId('document', now.getTime());
  const scope = idempotencyKey ? `${company._id}:${idempotencyKey}` : `${company._id}:doc:${id}`;
  const { attachments = [], ...withoutAttachments } = document;
  const row = {
    _id: id,
    company_id: company._id,
    workspace_id: company.workspace_id,
    account_id: sender.accountId,
    key_prefix: sender.keyPrefix,
    environment: sender.environment,
    type: document.type,
    number: document.number,
    status: 'queued' as const,
    idempotency_scope: scope,
    idempotency_key: idempotencyKey ?? null,
    input: { ...withoutAttachments, attachments: attachments.map(({ content: _content, ...meta }) => meta) },
    currency: document.currency,
    totals: totalsView(conversion.calculated),
    recipient_email: document.to.email ?? company.email ?? sender.accountEmail,
    ubl: conversion.ubl,
    created_at: now,
    updated_at: now,
  };
  try {
    await store.documents.create(row);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const existing = await store.documents.findOne({ idempotency_scope: scope }).lean();
    if (!existing) throw err;
    return { id: existing._id, status: existing.status, created: false, sendable: existing };
  }
  await Promise.all(
    attachments.map((attachment, position) => {
      const bytes = Buffer.from(attachment.content, 'base64');
      return store.attachments.create({
        _id: conversion.attachmentIds[position],
        document_id: id,
        position,
        filename: attachment.filename,
        mime_type: attachment.mime_type,
        description: attachment.description ?? null,
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        content: attachment.content,
        created_at: now,
      });
    }),
  );
  await recordStep(store, row, 'created', 'queued', { message: `Accepted from key ${sender.keyPrefix}` });
  await recordStep(store, row, 'validated', 'queued', { message: 'Passed the EN 16931 and Peppol BIS 3.0 checks' });
  await recordStep(store, row, 'queued', 'queued');
  return { id, status: 'queued', created: true, sendable: row };
}

/** Records that the send workflow exists; an insert, never an update of the document (see store/documents.ts). */
export async function markWorkflowStarted(store: Store, documentId: string): Promise<void> {
  try {
    await store.dispatches.create({ _id: documentId, started_at: new Date() });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

/**
 * Moves the document to a state and records the step; repeating a move
 * changes nothing. Answers the document as it was when the state changed,
 * null when it was in that state already.
 */
export async function moveDocument(
  store: Store,
  documentId: string,
  to: DocumentStatus,
  step: HistoryStep,
  details: { message?: string; error_message?: string | null } = {},
): Promise<{ account_id: string } | null> {
  const document = await store.documents.findById(documentId).lean();
  if (!document) throw new Error(`document ${documentId} does not exist`);
  const changed = document.status !== to;
  if (changed) {
    await store.documents.updateOne(
      { _id: documentId },
      { $set: { status: to, updated_at: new Date(), ...(details.error_message !== undefined && { error_message: details.error_message }) } },
    );
  }
  await recordStep(store, document, step, to, details);
  return changed ? document : null;
}

/** Documents accepted but never handed to a workflow (the start failed after the write). */
export async function queuedWithoutWorkflow(store: Store, olderThanMs: number, limit = 100): Promise<string[]> {
  const queued = await store.documents
    .find({ status: 'queued', created_at: { $lt: new Date(Date.now() - olderThanMs) } }, { _id: 1 })
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
  const dispatched = await store.dispatches.find({ _id: { $in: queued.map((row) => row._id) } }).lean();
  const started = new Set(dispatched.map((row) => row._id));
  return queued.map((row) => row._id).filter((id) => !started.has(id));
}
