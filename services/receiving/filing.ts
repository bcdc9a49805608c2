import { createHash } from 'node:crypto';

import { formatStatedAmount } from '../../domain/documents/calculate';
import { RECEIVED_EVENT, RECEIVED_STATUS } from '../../domain/documents/lifecycle';
import { ID_PREFIXES } from '../../domain/ids';
import { sbdPayload } from '../../domain/peppol/received-payload';
import { RoutingError, routingOf } from '../../domain/peppol/envelope';
import {
  readApplicationResponse,
  type ReadInvoiceResponse,
  type ReadMessageLevelStatus,
} from '../../domain/ubl/application-response';
import type { ReceivedUbl, StatedTotals, UblReadResult } from '../../domain/ubl/received-reader';
import { readBusinessDocument, type ReadDocument } from '../../domain/terms/read-document';
import { termsOfReading } from '../../domain/terms/from-reading';
import { writeUbl } from '../../domain/ubl/write';
import type { Logger } from '../../platform/logger';
import { documentsReached, repliesDone } from '../../platform/metrics';
import { boundsProblem, checkXmlBounds, UBL_BOUNDS, type XmlBoundsCheck } from '../../domain/xml-bounds';
import {
  splitFindings,
  ValidationTimeLimitError,
  type OfficialReport,
  type OfficialValidator,
} from '../../platform/official-validator';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import type { ReceivedMessageRow } from '../../store/receiving';
import type { DocumentTotals } from '../../domain/documents/acceptance';
import { recordDocumentEvent } from '../events';
import type { UsageCounters } from '../usage';
import { fanOutSoon, type FanOutDependencies } from '../webhooks/deliveries';
import { fileInvoiceResponse, fileMessageLevelStatus, type FiledReply } from './replies';

/**
 * Filing a received message as a document: the UBL out of its envelope,
 * judged by the official rules (a received invoice is a legal document and
 * is kept whatever they find), read into the API's JSON view, and stored as
 * a document with `direction: "received"`. Each write is an insert under a
 * key the message fixes, so filing again after a crash finishes the job and
 * doubles nothing.
 */

export interface FilingDependencies {
  store: Store;
  validator: OfficialValidator;
  logger: Logger;
}

/** What the receive workflow learns of a filed document; small, because it lands in workflow history. */
export interface Filed {
  type: DocumentRow['type'];
  number: string;
  valid: boolean;
  jsonView: boolean;
  /** Set when the message was a reply about a document we sent (Invoice Response, MLS), filed as such and not as a document. */
  reply?: FiledReply;
}

/** The account a received document is recorded under: nobody posted it. */
const RECEIVING_ACCOUNT = 'system:receiving';

type ReceivedValidation = {
  valid: boolean;
  rule_set: string | null;
  errors: OfficialReport['findings'];
  warnings: OfficialReport['findings'];
};

/** The UBL inside a stored message: the SBD's payload, or what was posted to the sandbox. */
export function receivedUbl(message: Pick<ReceivedMessageRow, 'source' | 'payload'>): Buffer | undefined {
  return message.source === 'peppol' ? sbdPayload(message.payload) : message.payload;
}

export type StoredMessage = Omit<ReceivedMessageRow, 'payload'> & { _id: string; payload: Buffer };

/** A stored message with its payload as a Buffer (a lean read gives the driver's Binary). */
export async function findReceivedMessage(store: Store, documentId: string): Promise<StoredMessage | null> {
  const row = await store.receivedMessages.findById(documentId).lean();
  return row && { ...row, payload: Buffer.from(row.payload.buffer) };
}

function validationOf(report: OfficialReport): ReceivedValidation {
  if (report.problem) return unjudged(report.problem.code, report.problem.message, report.rule_set);
  const { fatal, warnings } = splitFindings(report.findings);
  return { valid: fatal.length === 0, rule_set: report.rule_set, errors: fatal, warnings };
}

/** A received document the official rules did not judge, kept with why as its one finding. */
const unjudged = (rule: string, message: string, ruleSet: string | null = null): ReceivedValidation => ({
  valid: false,
  rule_set: ruleSet,
  errors: [{ rule, severity: 'fatal', location: '', message }],
  warnings: [],
});

const NO_DOCUMENT = 'The envelope carries no business document';

/** A received document past the bounds every document from outside meets (too deep, too many elements, a DOCTYPE, not XML): kept with that, never validated. */
const outOfBounds = (bounds: Exclude<XmlBoundsCheck, { ok: true }>) =>
  unjudged(
    bounds.problem === 'too_deep' || bounds.problem === 'too_many_elements' ? 'xml_too_complex' : 'not_well_formed',
    boundsProblem(bounds),
  );

/**
 * The official verdict on a received document within the bounds, in the validator's lane for received documents
 * (documents others wrote never take a send's permits); one whose validation reaches the time limit is kept with
 * that as its finding and never tried again. A validator that is away throws, for the workflow's retry.
 */
async function judgeReceived(validator: OfficialValidator, ubl: Buffer): Promise<ReceivedValidation> {
  try {
    return validationOf(await validator.validate(ubl, { lane: 'receive' }));
  } catch (err) {
    if (!(err instanceof ValidationTimeLimitError)) throw err;
    return unjudged(
      'validation_time_limit',
      `The official validation did not finish within ${err.limitMs / 1000} s; the document is kept unjudged`,
    );
  }
}

/**
 * The document row's totals from the UBL's own (a received document's, and a sent one the client wrote as UBL), in
 * the form of the totals the service calculates (`1300` is `1300.00`); amounts it leaves out are zero, and no
 * payable amount means no totals.
 */
export function totalsOf(stated: StatedTotals): DocumentTotals | null {
  if (stated.payable === null) return null;
  const statedOrZero = (amount: string | null) => formatStatedAmount(amount ?? '0');
  return {
    line_extension: statedOrZero(stated.line_extension),
    allowance_total: statedOrZero(stated.allowance_total),
    charge_total: statedOrZero(stated.charge_total),
    tax_exclusive: statedOrZero(stated.tax_exclusive),
    tax: statedOrZero(stated.tax),
    tax_inclusive: statedOrZero(stated.tax_inclusive),
    prepaid: statedOrZero(stated.prepaid),
    payable_rounding: statedOrZero(stated.payable_rounding),
    payable: statedOrZero(stated.payable),
  };
}

/** Attachment ids fixed by the document and position, so a repeated filing writes the same rows. */
function attachmentId(documentId: string, position: number): string {
  const digest = createHash('sha256')
    .update(`${documentId}:${position}`)
    .digest('base64')
    .replace(/[^0-9A-Za-z]/g, '');
  return `${ID_PREFIXES.attachment}_${digest.slice(0, 24)}`;
}

async function insertOnce(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

async function storeAttachments(store: Store, documentId: string, read: ReceivedUbl, now: Date): Promise<void> {
  for (const [position, attachment] of read.attachments.entries()) {
    await insertOnce(() =>
      insertRow(store.attachments, {
        _id: attachmentId(documentId, position),
        document_id: documentId,
        position,
        filename: attachment.filename ?? `attachment-${position + 1}`,
        mime_type: attachment.mime_code ?? 'application/octet-stream',
        description: attachment.description ?? null,
        size_bytes: attachment.content.length,
        sha256: createHash('sha256').update(attachment.content).digest('hex'),
        content: attachment.content.toString('base64'),
        created_at: now,
      }),
    );
  }
}

/** An Invoice Response or MLS, read; undefined for anything else (an unreadable ApplicationResponse is filed as a document of type `other`). */
function readReply(ubl: string): ReadInvoiceResponse | ReadMessageLevelStatus | undefined {
  if (
    !/^(?:\uFEFF)?(?:<\?xml[^?]*\?>)?\s*(?:<!--[\s\S]*?-->\s*)*<(?:[A-Za-z_][\w.-]*:)?ApplicationResponse[\s>]/.test(
      ubl,
    )
  )
    return undefined;
  const read = readApplicationResponse(ubl);
  return 'kind' in read ? read : undefined;
}

/** The buyer's participant id of a document we sent, from its stored UBL; null when it has none. */
async function buyerOf(store: Store, documentId: string): Promise<string | null> {
  const content = await store.contents.findById(documentId, { ubl: 1 }).lean();
  try {
    return content ? routingOf(content.ubl).receiver : null;
  } catch (err) {
    if (err instanceof RoutingError) return null;
    throw err;
  }
}

/**
 * A reply about a document we sent, judged by its official rules (Invoice Response T111, MLS) and kept whatever
 * they find, as any received message is: the report is stored beside the UBL (`contents`, under the message's
 * id), where the Message Level Status its sender may ask for reads it.
 */
async function fileReply(
  deps: FilingDependencies,
  message: StoredMessage,
  reply: ReadInvoiceResponse | ReadMessageLevelStatus,
  ubl: string,
): Promise<Filed> {
  const { store } = deps;
  // Within the bounds: fileReceived measured it before reading it as a reply.
  const validation = await judgeReceived(deps.validator, Buffer.from(ubl, 'utf8'));
  await insertOnce(() =>
    insertRow(store.contents, { _id: message._id, input: null, ubl, validation, created_at: new Date() }),
  );
  const filed =
    reply.kind === 'invoice_response'
      ? await fileInvoiceResponse(store, message, reply, ubl, (documentId) => buyerOf(store, documentId))
      : await fileMessageLevelStatus(store, message, reply);
  return {
    type: 'other',
    number: reply.kind === 'invoice_response' ? reply.reference.id : reply.referencedInstanceId,
    valid: validation.valid,
    jsonView: false,
    reply: filed,
  };
}

const filedOf = (document: DocumentRow, valid: boolean): Filed => ({
  type: document.type,
  number: document.number,
  valid,
  jsonView: !document.received?.json_view_problem,
});

/** The document filed already, if it is. */
async function filedAlready(store: Store, documentId: string): Promise<Filed | undefined> {
  const existing = await store.documents.findById(documentId).lean();
  if (!existing) return undefined;
  const content = await store.contents.findById(documentId, { validation: 1 }).lean();
  return filedOf(existing, (content?.validation as ReceivedValidation | null)?.valid ?? false);
}

async function storedMessage(store: Store, documentId: string): Promise<StoredMessage> {
  const message = await findReceivedMessage(store, documentId);
  if (!message) throw new Error(`no received message ${documentId}`);
  return message;
}

/** Files the stored message `documentId` as a received document (once). */
export async function fileReceived(deps: FilingDependencies, documentId: string): Promise<Filed> {
  const filed = await filedAlready(deps.store, documentId);
  if (filed) return filed;
  const message = await storedMessage(deps.store, documentId);
  const ublBytes = receivedUbl(message);
  const ubl = ublBytes?.toString('utf8') ?? '';
  // Measured before anything reads it: a document past the bounds is filed with that as its finding, unread.
  const bounds = ublBytes && checkXmlBounds(ublBytes, UBL_BOUNDS);
  const reply = bounds?.ok && readReply(ubl);
  if (reply) return fileReply(deps, message, reply, ubl);
  const validation =
    !ublBytes || !bounds
      ? unjudged('not_ubl', NO_DOCUMENT)
      : bounds.ok
        ? await judgeReceived(deps.validator, ublBytes)
        : outOfBounds(bounds);
  const read =
    ublBytes && bounds?.ok
      ? readBusinessDocument(ublBytes)
      : { unsupported: bounds && !bounds.ok ? boundsProblem(bounds) : NO_DOCUMENT };
  return fileDocument(deps.store, message, ubl, validation, read);
}

/**
 * The last resort when filing kept failing (a day of retries) or failed in a way no retry mends: the message is
 * filed unread, its UBL kept as it came, with why as its one finding, so it still reaches the inbox. Never dropped.
 */
export async function fileUnread(store: Store, documentId: string, why: string): Promise<Filed> {
  const filed = await filedAlready(store, documentId);
  if (filed) return filed;
  const message = await storedMessage(store, documentId);
  const problem = `The document could not be read and judged: ${why}`;
  return fileDocument(
    store,
    message,
    receivedUbl(message)?.toString('utf8') ?? '',
    unjudged('filing_failed', problem),
    { unsupported: problem },
  );
}

/** Stores the document row, its content and attachments, each under a key the message fixes. */
async function fileDocument(
  store: Store,
  message: StoredMessage,
  ubl: string,
  validation: ReceivedValidation,
  read: UblReadResult | ReadDocument,
): Promise<Filed> {
  const documentId = message._id;
  const now = new Date();
  const document = 'unsupported' in read ? null : read.document;

  if (!('unsupported' in read)) await storeAttachments(store, documentId, read, now);
  // A CII document is kept as it came, beside the UBL written from its terms, which its renderings and `/ubl` use.
  const cii = 'syntax' in read && read.syntax === 'cii' ? ubl : null;
  const businessUbl = cii !== null && !('unsupported' in read) ? writeUbl(termsOfReading(read)) : ubl;
  await insertOnce(() =>
    insertRow(store.contents, { _id: documentId, input: document, ubl: businessUbl, cii, validation, created_at: now }),
  );

  const row: DocumentRow & { _id: string } = {
    _id: documentId,
    company_id: message.company_id,
    workspace_id: message.workspace_id,
    account_id: RECEIVING_ACCOUNT,
    key_prefix: message.source,
    environment: message.environment,
    direction: 'received',
    type: 'unsupported' in read ? 'other' : read.kind,
    number: document?.number ?? '',
    issue_date: document?.issue_date ?? message.received_at.toISOString().slice(0, 10),
    due_date: document?.due_date ?? null,
    status: RECEIVED_STATUS,
    // One document per received message, whatever retries the filing takes.
    idempotency_scope: `received:${message.message_key}`,
    idempotency_key: null,
    currency: document?.currency ?? '',
    totals: 'unsupported' in read ? null : totalsOf(read.stated_totals),
    recipient_email: null,
    counterparty: document?.from?.name ?? null,
    sent_at: null,
    message_id: message.message_id,
    error_message: null,
    rule_set: validation.rule_set,
    received: {
      source: message.source,
      sender_id: message.sender_id ?? null,
      receiver_id: message.receiver_id,
      access_point: message.access_point ?? null,
      as4_message_id: message.message_id,
      document_type_id: message.document_type_id ?? null,
      json_view_problem: 'unsupported' in read ? read.unsupported : null,
    },
    acknowledged_at: null,
    created_at: message.received_at,
    updated_at: now,
  };
  await insertOnce(() => insertRow(store.documents, row));
  return filedOf(row, validation.valid);
}

/**
 * Ends the message's `receiving` (its `filed` mark); the first call for a message counts it as received, a
 * document or a reply, so a filing repeated after a crash counts it once.
 */
export async function markFiled(store: Store, documentId: string, filed: Filed): Promise<void> {
  const marked = await store.receivedMessages.updateOne({ _id: documentId, filed: false }, { $set: { filed: true } });
  if (marked.modifiedCount === 0) return;
  if (filed.reply) repliesDone.inc({ kind: filed.reply.kind, direction: 'received', outcome: 'received' });
  else documentsReached.inc({ direction: 'received', status: RECEIVED_STATUS });
}

export interface AnnounceDependencies {
  store: Store;
  fanOut: FanOutDependencies;
  usage: UsageCounters;
  logger: Logger;
}

/** The `document.received` event (feed and webhooks) and the workspace's usage count, once per document. */
export async function announceReceived(deps: AnnounceDependencies, documentId: string): Promise<void> {
  const document = await deps.store.documents.findById(documentId).lean();
  if (!document?.received) throw new Error(`received document ${documentId} is not filed`);
  const jsonView = !document.received.json_view_problem;
  const recorded = await recordDocumentEvent(
    deps.store,
    document,
    documentId,
    {
      dedupeKey: `${documentId}:received`,
      type: RECEIVED_EVENT,
      data: {
        direction: 'received',
        status: RECEIVED_STATUS,
        type: document.type,
        number: document.number,
        sender_id: document.received.sender_id ?? null,
        receiver_id: document.received.receiver_id,
        json_view: jsonView,
        message: jsonView
          ? `Received from ${document.received.sender_id ?? 'an unknown sender'}`
          : `Received from ${document.received.sender_id ?? 'an unknown sender'}; the JSON view is unavailable (${document.received.json_view_problem}), the UBL is kept`,
      },
    },
    deps.logger,
  );
  await fanOutSoon(deps.fanOut, recorded.event);
  if (recorded.created) {
    const workspace = await deps.store.workspaces.findById(document.workspace_id, { owner_ids: 1 }).lean();
    const owner = workspace?.owner_ids[0];
    if (owner) deps.usage.count(owner, 'documents_received');
  }
}
