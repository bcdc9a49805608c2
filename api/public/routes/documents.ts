import type { Request } from 'express';

import { mapConcurrently } from '../../../domain/concurrently';
import { calculate } from '../../../domain/documents/calculate';
import type { DocumentTotals } from '../../../domain/documents/acceptance';
import { documentInputSchema } from '../../../domain/documents/input';
import { TRANSITIONS } from '../../../domain/documents/lifecycle';
import { idPattern, newSortableId } from '../../../domain/ids';
import { unitsToEuros } from '../../../domain/credits';
import { INTERACTIVE_VALIDATION_MS, type OfficialValidator } from '../../../platform/official-validator';
import type { CreditSettings } from '../../../services/credits/charges';
import { requireLiveSending } from '../../../services/credits/live-sending';
import type { CompanyIdentity } from '../../../domain/kyc/participant-proof';
import { requireVerifiedSender } from '../../../services/documents/verified-sender';
import { eventsOfDocument } from '../../../services/events';
import { attachmentsOf, findAttachment, listDocuments, postedCiiOf, ublOf } from '../../../services/documents/queries';
import { recipientOf, totalsView } from '../../../services/documents/accept';
import type { Company } from '../../../services/companies';
import { submitDocument, type SubmissionDependencies } from '../../../services/documents/submit';
import { documentWarnings } from '../../../services/documents/warnings';
import type { RateLimiter } from '../../../services/rate-limits';
import { requireDocument, requireDocumentCompany, requireDocumentOf } from '../access';
import { requireBusinessDocument } from '../business-document';
import type { AuthContext } from '../authentication';
import { documentRefused, documentTooLarge, MAX_BATCH, ublEntrySchema, type EntryReading } from '../document-input';
import { invalidJson } from '../../http/json-body';
import { XML_MEDIA_TYPES } from '../../http/request-context';
import { prepareUblDocument } from '../ubl-document';
import type { CpuPool } from '../cpu-pool';
import { answerFor, ApiError } from '../../http/errors';
import { z } from '../../contract/openapi';
import { decodeCursor, pageSchema, pageView } from '../../http/paging';
import type { RouteTable } from '../route-table';
import { idParam } from '../../contract/schemas';
import { receivedContentOf } from './received-content';
import { findingsView, ruleSetIdSchema, ublFindingSchema } from '../../contract/views/ubl-validation';
import { invalidField, missingField } from '../../http/validation';
import {
  acceptedSchema,
  attachmentSchema,
  attachmentView,
  documentSchema,
  documentSummary,
  documentSummarySchema,
  documentView,
  historyEntrySchema,
  historyView,
  totalsSchema,
  violationSchema,
  warningSchema,
} from '../../contract/views/documents';
import {
  companyQuery,
  documentCompanyQuery,
  documentListQuery,
  documentParams,
  optionalDocumentCompany,
} from '../../contract/queries';

const documentOptionalCompanyQuery = z.object({ company_id: optionalDocumentCompany }).strict();
/** A UBL document posted as the body has no JSON to name its company: the query does. */
const ublDocumentQuery = z
  .object({
    company_id: companyQuery.optional().openapi({
      description:
        "With an XML body (`application/xml`: UBL or CII) only, and then required: the sending company, which must be the document's seller",
    }),
  })
  .strict();
/** What a UBL document the client made can be refused for, besides what a JSON one can. */
const UBL_ERRORS = [
  'invalid_xml',
  'xml_too_complex',
  'not_ubl_document',
  'seller_mismatch',
  'validator_unavailable',
] as const;
const batchErrorSchema = z.object({ error: z.record(z.string(), z.unknown()) }).openapi('BatchError');

export interface DocumentRouteDependencies extends SubmissionDependencies {
  limiter: RateLimiter;
  /** Largest document body (attachments travel inside it). */
  maxBodyBytes: number;
  sandboxRecipientsPerDay: number;
  /** The official Peppol rules, which validation without sending runs as sending does. */
  validator: OfficialValidator;
  /** The price of live documents and the low-balance threshold. */
  credits: CreditSettings;
  /** Worker threads that read and convert posted documents. */
  cpu: CpuPool;
}

/**
 * The sandbox sends real email, so it must not become a way to mail anyone:
 * besides the account's own address and the company's, an account reaches
 * at most `sandboxRecipientsPerDay` distinct recipients a day.
 */
async function admitSandboxRecipient(
  deps: DocumentRouteDependencies,
  auth: AuthContext,
  company: Company,
  recipient: string,
): Promise<void> {
  const address = recipient.toLowerCase();
  if (address === auth.email.toLowerCase() || address === company.email?.toLowerCase()) return;
  const state = await deps.limiter.admitDistinct(
    `sandbox-recipients:${auth.accountId}`,
    address,
    deps.sandboxRecipientsPerDay,
  );
  if (state.exceeded) {
    const retryAfter = Math.max(1, Math.ceil((state.resetAt - Date.now()) / 1000));
    throw new ApiError(
      'sandbox_recipient_quota',
      `The sandbox delivers to at most ${deps.sandboxRecipientsPerDay} different addresses per account per day (your own and your company's always work); ${recipient} would be one more. Try again tomorrow (UTC), or send to one of those.`,
      {
        param: 'to.email',
        headers: { 'Retry-After': String(retryAfter) },
        details: { limit: deps.sandboxRecipientsPerDay, retry_after_seconds: retryAfter },
      },
    );
  }
}

/**
 * The company a posted body names, checked before anything else of it is
 * looked at; on the live host also whether its workspace may send live, the
 * verified identity its documents must state (`verifiedSender`), and what a
 * live document costs it (`livePriceUnits`).
 */
async function companyOf(
  deps: DocumentRouteDependencies,
  auth: AuthContext,
  companyId: string | null | undefined,
): Promise<{ company: Company; livePriceUnits?: number; verifiedSender?: CompanyIdentity }> {
  if (companyId === undefined) throw missingField('company_id', 'company_id is required.');
  if (companyId === null) throw invalidField('company_id', 'company_id must be a company id (com_…).');
  const company = await requireDocumentCompany(deps.store, auth, companyId);
  if (auth.environment !== 'live') return { company };
  const { priceUnits } = await requireLiveSending(deps.store, company.workspace_id, deps.credits.priceUnits);
  return { company, livePriceUnits: priceUnits, verifiedSender: requireVerifiedSender(company) };
}

/** Reads a posted body on a worker thread: JSON, then each document's shape. */
async function readBody(deps: DocumentRouteDependencies, bytes: Buffer, batch: boolean) {
  const reading = await deps.cpu.run('readDocumentBody', { bytes, batch });
  if (!reading.ok) throw invalidJson(reading.invalidJson);
  return reading;
}

type SendingCompany = Awaited<ReturnType<typeof companyOf>>;

/**
 * The company of one posted document, and the document converted for it (on a worker thread), or the refusal;
 * a batch, whose documents all name one company, passes it as checked once for them all.
 */
async function prepareEntry(
  deps: DocumentRouteDependencies,
  auth: AuthContext,
  entry: EntryReading,
  checked?: SendingCompany,
) {
  if (!entry.object) throw invalidField('body', 'The body must be a JSON object (a document).');
  const { company, livePriceUnits, verifiedSender } = checked ?? (await companyOf(deps, auth, entry.companyId));
  if ('ubl' in entry)
    return { company, livePriceUnits, prepared: await prepareUblDocument(deps, company, entry, verifiedSender) };
  if (!entry.shape.ok) throw documentRefused(entry.shape.violations);
  const conversion = await deps.cpu.run('convertForCompany', { input: entry.shape.input, company, verifiedSender });
  if (!conversion.ok)
    throw 'violations' in conversion
      ? documentRefused(conversion.violations)
      : documentTooLarge(conversion.storedBytes);
  return { company, livePriceUnits, prepared: conversion.prepared };
}

/** The totals of a JSON document our checks refused where its shape holds (every amount a number): computing them needs nothing more. */
function totalsWhileRefused(entry: EntryReading): DocumentTotals | null {
  return entry.object && 'shape' in entry && entry.shape.ok ? totalsView(calculate(entry.shape.input)) : null;
}

/** The one document of a POST: a UBL body as it came (its company in the query), or the JSON document read. */
async function postedEntry(
  deps: DocumentRouteDependencies,
  req: Request,
  body: Buffer,
  query: z.output<typeof ublDocumentQuery>,
): Promise<EntryReading> {
  if (req.is(XML_MEDIA_TYPES)) return { object: true, companyId: query.company_id, bodyKey: undefined, ubl: body };
  if (query.company_id !== undefined)
    throw invalidField(
      'company_id',
      'The company_id query parameter goes with a UBL (application/xml) body; a JSON document names its company_id in the body.',
    );
  return (await readBody(deps, body, false)).entries[0]!;
}

async function submitOne(
  deps: DocumentRouteDependencies,
  req: Request,
  entry: EntryReading,
  headerKey: string | undefined,
  inBatch?: { company: SendingCompany; id: string },
) {
  const auth = req.auth!;
  if (headerKey !== undefined && entry.object && entry.bodyKey !== undefined && entry.bodyKey !== headerKey) {
    throw invalidField(
      'idempotency_key',
      'The Idempotency-Key header and idempotency_key in the body differ; send one.',
    );
  }
  const { company, livePriceUnits, prepared } = await prepareEntry(deps, auth, entry, inBatch?.company);
  if (auth.environment === 'sandbox')
    await admitSandboxRecipient(deps, auth, company, recipientOf(prepared.document, company, auth.email));
  const accepted = await submitDocument(
    deps,
    { accountId: auth.accountId, accountEmail: auth.email, keyPrefix: auth.keyPrefix, environment: auth.environment },
    company,
    prepared,
    headerKey ?? prepared.document.idempotency_key,
    livePriceUnits !== undefined
      ? { priceUnits: livePriceUnits, lowThresholdUnits: deps.credits.lowThresholdUnits }
      : undefined,
    inBatch?.id,
  );
  const url = `${req.origin}/v1/documents/${accepted.id}?company_id=${company._id}`;
  const warnings = await documentWarnings(
    deps.store,
    prepared.document,
    { companyId: company._id, environment: auth.environment },
    accepted.id,
  );
  return {
    status: accepted.created ? (202 as const) : (200 as const),
    body: { id: accepted.id, url, status: accepted.created ? accepted.status : TRANSITIONS.accept.to, warnings },
    balanceUnits: accepted.balanceUnits,
  };
}

/** `X-Credits-Remaining` once a live balance is below the threshold. */
function creditsHeader(deps: DocumentRouteDependencies, balanceUnits: number | undefined): Record<string, string> {
  return balanceUnits !== undefined && balanceUnits < deps.credits.lowThresholdUnits
    ? { 'X-Credits-Remaining': unitsToEuros(balanceUnits) }
    : {};
}

/**
 * A sandbox batch's documents submitted at once: each waits mostly for its workflow's first step, on the worker. A
 * live batch goes one after another, so the balance pays for its documents in their order.
 */
const BATCH_CONCURRENCY = 8;

export function documentRoutes(routes: RouteTable, deps: DocumentRouteDependencies): void {
  sendDocumentRoute(routes, deps);
  sendDocumentBatchRoute(routes, deps);
  validateDocumentRoute(routes, deps);
  listDocumentsRoute(routes, deps);
  getDocumentRoute(routes, deps);
  getDocumentHistoryRoute(routes, deps);
  getDocumentUblRoute(routes, deps);
  getDocumentCiiRoute(routes, deps);
  listDocumentAttachmentsRoute(routes, deps);
  getDocumentAttachmentRoute(routes, deps);
}

function sendDocumentRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  routes.add({
    method: 'post',
    path: '/v1/documents',
    operationId: 'sendDocument',
    summary: 'Validate, convert to Peppol BIS Billing 3.0 UBL, queue and send a document',
    description:
      'Answers 202 once the document is stored and queued; delivery is asynchronous (sandbox: email; live: Peppol). ' +
      "A live document goes to the buyer's Peppol id (`to.peppol_id`, the UBL EndpointID): the buyer is looked up (SML, SMP) and must receive this document type, " +
      'then our access point sends it by AS4; a buyer that cannot receive it fails the document at once with the reason in `error_message`. ' +
      "A live document speaks only for the company as its review verified it: its seller Peppol id (BT-34), legal name (BT-27), VAT id (BT-31) and registration id (BT-30) are the company's, " +
      'and a different value in `from` (or in a posted UBL) is 422 `document_invalid` naming the field (a trading name and the address may differ); a company whose identity is not verified ' +
      "(a Peppol id set or changed since, or a changed name or number, waiting for the operator's review) is 409 `sender_not_verified` with the reason. In the sandbox `from` is free, and the email and renderings say the sender is unverified. " +
      'The same `Idempotency-Key` header or `idempotency_key` for the same company answers 200 with the first document and sends nothing again. ' +
      'A refused document gets 422 `document_invalid` with `details.violations`: every problem (up to 50), each with its JSON path, the EN 16931 / Peppol rule id where one applies, and a message. ' +
      "An accepted one may carry `warnings` (`{code, message, path}`), sent all the same: `vat_rate_unusual`, a standard rate some country uses but not the seller's; " +
      '`duplicate_number`, a number this company already used for a document of this type (the message names it; to retry safely, use an idempotency key). ' +
      "A UBL 2.1 Invoice or CreditNote the client made is sent as the body itself (`application/xml`, UTF-8) with `?company_id=`: its seller EndpointID (with schemeID) must be that company's `peppol_id` " +
      '(else 422 `seller_mismatch`), the official Peppol BIS Billing 3.0 rules must find nothing fatal (else 422 `document_invalid`, each fatal finding a violation whose `path` is its XPath; `details.rule_set`), ' +
      'and it is then accepted as a JSON document is; it is sent, and `GET /v1/documents/{id}/ubl` answers, byte for byte as posted. ' +
      'A UN/CEFACT CII CrossIndustryInvoice (EN 16931 CII syntax, D16B; TypeCode 380 an invoice, 381 a credit note) is taken the same way: its seller (`ram:SellerTradeParty/ram:URIUniversalCommunication/ram:URIID` with schemeID) must be the company, ' +
      "CEN's EN 16931 CII rules judge it first (422 `document_invalid` at CII XPaths), then the UBL written from its terms, with the totals and VAT it states, is judged by the Peppol rules (422 with `details.sent_as` `ubl`, at UBL XPaths) and is what is sent; " +
      '`GET /v1/documents/{id}/cii` answers the CII byte for byte as posted, `/ubl` the UBL sent. Not well-formed: 400 `invalid_xml`; none of these kinds: 422 `not_ubl_document`; ' +
      "past the public validator's bounds: 422 `xml_too_complex`.",
    tags: ['Documents'],
    limitedKeys: true,
    jsonBytesBody: documentInputSchema,
    xmlBody: z.string().openapi({
      description:
        'A UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0), or a UN/CEFACT CII CrossIndustryInvoice (EN 16931), whose seller is the company `company_id` names',
      example: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">…</Invoice>',
    }),
    query: ublDocumentQuery,
    bodyLimit: deps.maxBodyBytes,
    responses: {
      202: {
        description: 'Accepted and queued; `Location` is the document',
        schema: acceptedSchema,
        headers: { Location: { description: 'The document', schema: { type: 'string' } } },
      },
      200: { description: 'Idempotent replay: the first document with this key', schema: acceptedSchema },
    },
    errors: [
      'not_company_member',
      'workspace_not_verified',
      'workspace_suspended',
      'sender_not_verified',
      'insufficient_credits',
      'document_invalid',
      'document_too_large',
      'sandbox_recipient_quota',
      'server_busy',
      ...UBL_ERRORS,
    ],
    handler: async ({ body, query, req }) => {
      const entry = await postedEntry(deps, req, body as Buffer, query);
      const submitted = await submitOne(deps, req, entry, req.get('Idempotency-Key'));
      return {
        status: submitted.status,
        body: submitted.body,
        headers: { Location: submitted.body.url, ...creditsHeader(deps, submitted.balanceUnits) },
      };
    },
  });
}

function sendDocumentBatchRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  routes.add({
    method: 'post',
    path: '/v1/documents/batch',
    operationId: 'sendDocumentBatch',
    summary: 'Send up to 100 documents of one company, each processed on its own',
    description:
      'Answers 202 with an array in the order sent: each entry is a DocumentAccepted or `{error}` (the envelope of that document, ' +
      'including `internal_error` for one that failed on our side: retry just that one, with its idempotency_key). ' +
      'A batch is one request against the rate limits. With a live key each document is charged on its own: when the balance covers some ' +
      'of them, the others are `insufficient_credits` entries; when it covers none (no document accepted), the whole request is 402 ' +
      '`insufficient_credits` and nothing is queued or charged. The `Idempotency-Key` header has no effect here; set `idempotency_key` per document. ' +
      'All documents of a batch name the same `company_id`: a batch whose entries name different companies is refused whole, before any document ' +
      'is processed, with 400 `invalid_field` (`param` `[].company_id`); one whose entries all lack it, with 400 `missing_field` (`[0].company_id`). ' +
      'An entry `{company_id, ubl, idempotency_key?}` is a UBL document the client made (`ubl`: its bytes in base64), checked and accepted as `POST /v1/documents` takes it as `application/xml`.',
    tags: ['Documents'],
    limitedKeys: true,
    jsonBytesBody: z
      .array(z.union([documentInputSchema, ublEntrySchema]))
      .min(1)
      .max(MAX_BATCH)
      .openapi({
        description:
          'Documents of one company: every entry has the same `company_id` (a rule JSON Schema cannot state; see the operation).',
      }),
    bodyLimit: deps.maxBodyBytes,
    responses: {
      202: {
        description: 'One result per document, same order',
        schema: z.array(z.union([acceptedSchema, batchErrorSchema])),
      },
    },
    errors: [
      'batch_too_large',
      'not_company_member',
      'workspace_not_verified',
      'workspace_suspended',
      'sender_not_verified',
      'insufficient_credits',
      'server_busy',
    ],
    handler: async ({ auth, body, req }) => {
      const batch = await readBody(deps, body as Buffer, true);
      const company = await companyOf(deps, auth, batchCompanyId(batch));
      const answers = await submitBatch(deps, req, batch.entries, company);
      const accepted = answers.flatMap((answer) => (answer.ok ? [answer.submitted] : []));
      const unpaid = answers.flatMap((answer) =>
        !answer.ok && answer.refused.code === 'insufficient_credits' ? [answer.refused] : [],
      )[0];
      // The balance covered none of it: nothing was queued or charged, so the whole request is refused as a single document would be.
      if (accepted.length === 0 && unpaid) throw unpaid;
      // The lowest balance a reservation left is the balance after the batch.
      const balances = accepted.flatMap(({ balanceUnits }) => (balanceUnits === undefined ? [] : [balanceUnits]));
      return {
        status: 202,
        body: answers.map((answer) => (answer.ok ? answer.submitted.body : answer.refused.toEnvelope())),
        headers: creditsHeader(deps, balances.length > 0 ? Math.min(...balances) : undefined),
      };
    },
  });
}

/** The one company a batch's documents name; a batch of none, of too many, or of several companies is refused whole. */
function batchCompanyId(batch: Awaited<ReturnType<typeof readBody>>): string {
  if (!batch.array || batch.length === 0) throw invalidField('body', 'Send a JSON array of 1 to 100 documents.');
  if (batch.length > MAX_BATCH)
    throw new ApiError(
      'batch_too_large',
      `A batch holds at most ${MAX_BATCH} documents; this one has ${batch.length}.`,
    );
  const companies = new Set(batch.entries.map((entry) => (entry.object ? entry.companyId : undefined)));
  const [companyId] = companies;
  if (companies.size !== 1)
    throw invalidField('[].company_id', 'Every document of a batch must have the same company_id.');
  if (typeof companyId !== 'string')
    throw missingField('[0].company_id', 'Every document of a batch needs the company_id.');
  return companyId;
}

type BatchAnswer = { ok: true; submitted: Awaited<ReturnType<typeof submitOne>> } | { ok: false; refused: ApiError };

/**
 * Each document of a batch submitted on its own, its refusal (402 too: each entry is charged on its own) its answer
 * while the others stand. Each waits mostly for its own workflow's answer, so they are submitted side by side; the
 * answers, and the ids (a millisecond apart), keep the batch's order.
 */
async function submitBatch(
  deps: DocumentRouteDependencies,
  req: Request,
  entries: EntryReading[],
  company: SendingCompany,
): Promise<BatchAnswer[]> {
  const started = Date.now();
  const earlierOf = sameNumberBefore(entries);
  const submissions: Promise<BatchAnswer>[] = [];
  const submit = async (entry: EntryReading, index: number): Promise<BatchAnswer> => {
    // An entry repeating an earlier one's number waits for it: its duplicate_number then names that entry.
    const earlier = earlierOf[index];
    if (earlier !== undefined) await submissions[earlier];
    try {
      const id = newSortableId('document', started + index);
      return { ok: true, submitted: await submitOne(deps, req, entry, undefined, { company, id }) };
    } catch (err) {
      return { ok: false, refused: answerFor(err, req) };
    }
  };
  const concurrency = company.livePriceUnits === undefined ? BATCH_CONCURRENCY : 1;
  return mapConcurrently(entries, concurrency, (entry, index) => (submissions[index] = submit(entry, index)));
}

/**
 * For each entry of a batch, the index of the last entry before it with the same type and number, if any. A batch's
 * documents are submitted side by side; one that repeats an earlier entry waits for it, so that its
 * `duplicate_number` warning names the entry accepted just before it, as when they are sent one at a time.
 */
function sameNumberBefore(entries: EntryReading[]): (number | undefined)[] {
  const last = new Map<string, number>();
  return entries.map((entry, index) => {
    if (!('shape' in entry) || !entry.shape.ok) return undefined;
    const key = `${entry.shape.input.type}\u0000${entry.shape.input.number}`;
    const earlier = last.get(key);
    last.set(key, index);
    return earlier;
  });
}

const documentValidationSchema = z
  .object({
    valid: z.boolean(),
    violations: z.array(violationSchema),
    warnings: z.array(warningSchema).openapi({
      description: 'What sending would warn about (see DocumentAccepted); empty when our checks refuse the document',
    }),
    official: z
      .object({
        rule_set: ruleSetIdSchema,
        errors: z.array(ublFindingSchema),
        warnings: z.array(ublFindingSchema),
      })
      .nullable()
      .openapi({
        description: "What the official rules found; null when the API's own checks refused the document first",
      }),
    ubl: z.string().nullable(),
    totals: totalsSchema.nullable().openapi({
      description:
        'The totals as sending would compute them; also for a JSON document refused by meaning (a missing reference, a wrong VAT category), so a form shows them as it is filled in; null when the shape is wrong (no number where an amount goes) or for a UBL or CII body refused',
    }),
  })
  .openapi('DocumentValidation');

function validateDocumentRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  routes.add({
    method: 'post',
    path: '/v1/documents/validate',
    operationId: 'validateDocument',
    summary: 'Run the same checks, conversion and official validation as sending, without storing, charging or sending',
    description:
      "The API's own checks first (`violations`, each with its JSON path); when they pass, the UBL goes through the official Peppol " +
      'BIS Billing 3.0 rules exactly as before sending (`official`: rule set, fatal `errors` and `warnings`). `valid` is true when neither refuses it. ' +
      '`warnings` are ours, as sending would answer them (`vat_rate_unusual`, `duplicate_number`), for a document our checks pass.',
    tags: ['Documents'],
    limitedKeys: true,
    jsonBytesBody: documentInputSchema,
    bodyLimit: deps.maxBodyBytes,
    responses: {
      200: {
        description: 'The verdict: the UBL when valid, every violation when not',
        schema: documentValidationSchema,
      },
    },
    errors: [
      'not_company_member',
      'workspace_not_verified',
      'workspace_suspended',
      'sender_not_verified',
      'document_too_large',
      'validator_unavailable',
      'server_busy',
    ],
    handler: async ({ auth, body, signal }) => ({
      status: 200,
      body: await validateDocument(deps, auth, body as Buffer, signal),
    }),
  });
}

/** The verdict on a posted document: our checks, then (when they pass) the official rules, nothing stored. */
async function validateDocument(
  deps: DocumentRouteDependencies,
  auth: AuthContext,
  body: Buffer,
  signal: AbortSignal,
): Promise<z.input<typeof documentValidationSchema>> {
  const [entry] = (await readBody(deps, body, false)).entries;
  let prepared, company;
  try {
    ({ prepared, company } = await prepareEntry(deps, auth, entry!));
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'document_invalid') throw err;
    const violations = (err.options.details as { violations: z.input<typeof violationSchema>[] }).violations;
    return { valid: false, violations, warnings: [], official: null, ubl: null, totals: totalsWhileRefused(entry!) };
  }
  const warnings = await documentWarnings(deps.store, prepared.document, {
    companyId: company._id,
    environment: auth.environment,
  });
  const report = await deps.validator.validate(prepared.ubl, {
    lane: 'interactive',
    limitMs: INTERACTIVE_VALIDATION_MS,
    signal,
  });
  const official = { rule_set: report.rule_set, ...findingsView(report.findings) };
  return { valid: report.valid, violations: [], warnings, official, ubl: prepared.ubl, totals: prepared.totals };
}

function listDocumentsRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents',
    operationId: 'listDocuments',
    summary:
      "Documents of a company, or of every company of the workspace (of this key's environment), newest first, filtered and searched",
    tags: ['Documents'],
    limitedKeys: true,
    query: documentListQuery,
    responses: {
      200: { description: 'A page of documents', schema: pageSchema(documentSummarySchema, 'DocumentList') },
    },
    errors: ['not_company_member'],
    handler: async ({ auth, query }) => {
      if (query.company_id !== undefined) await requireDocumentCompany(store, auth, query.company_id);
      const companyId = query.company_id ?? auth.companyId;
      const page = await listDocuments(store, {
        scope: companyId ? { companyId } : { workspaceId: auth.workspaceId },
        environment: auth.environment,
        status: query.status,
        direction: query.direction,
        acknowledged: query.acknowledged === undefined ? undefined : query.acknowledged === 'true',
        search: query.q,
        issuedFrom: query.issued_from,
        issuedTo: query.issued_to,
        limit: query.limit,
        before: decodeCursor(query.cursor, idPattern('document')),
      });
      return { status: 200, body: pageView(page, documentSummary) };
    },
  });
}

function getDocumentRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}',
    operationId: 'getDocument',
    summary: 'A document with its status, totals and attachments',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: documentCompanyQuery,
    responses: { 200: { description: 'The document', schema: documentSchema } },
    errors: ['not_company_member', 'document_not_found'],
    handler: async ({ auth, params, query, req }) => {
      await requireDocumentCompany(store, auth, query.company_id);
      const document = await requireDocument(store, auth, params.id, query.company_id);
      return {
        status: 200,
        body: documentView(
          document,
          await attachmentsOf(store, document._id),
          req.origin,
          await receivedContentOf(store, document),
        ),
      };
    },
  });
}

function getDocumentHistoryRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/history',
    operationId: 'getDocumentHistory',
    summary: 'Delivery history: created, validated, queued, sending, each retry, delivered or failed',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: documentOptionalCompanyQuery,
    responses: { 200: { description: 'History entries, oldest first', schema: z.array(historyEntrySchema) } },
    errors: ['not_company_member', 'document_not_found'],
    handler: async ({ auth, params, query }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      return { status: 200, body: historyView(document, await eventsOfDocument(store, document._id)) };
    },
  });
}

function getDocumentUblRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/ubl',
    operationId: 'getDocumentUbl',
    summary: 'The UBL exactly as it was sent (404 until sent), or as it was received',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: documentOptionalCompanyQuery,
    responses: {
      200: { description: 'Peppol BIS Billing 3.0 UBL', schema: z.string(), contentType: 'application/xml' },
    },
    errors: ['not_company_member', 'document_not_found', 'ubl_not_available'],
    handler: async ({ auth, params, query, res }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      if (document.received) {
        res
          .status(200)
          .type('application/xml')
          .send(await requireBusinessDocument(store, document));
        return;
      }
      const ubl = document.sent_at ? await ublOf(store, document._id) : null;
      if (!ubl)
        throw new ApiError(
          'ubl_not_available',
          `Document ${document._id} has not been sent yet (status ${document.status}).`,
        );
      res.status(200).type('application/xml').send(ubl);
    },
  });
}

function getDocumentCiiRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/cii',
    operationId: 'getDocumentCii',
    summary:
      'The document as UN/CEFACT CII (EN 16931 CII syntax): as posted when it came as CII, else written from its UBL',
    description:
      'Any document, sent or received, from acceptance on: one posted as CII is answered byte for byte as posted; any other is its UBL (as `/ubl` gives it, or as it will be sent) ' +
      'written as a CrossIndustryInvoice (D16B) by the same term table, with the totals, VAT breakdown and line amounts the UBL states, never computed again. ' +
      'What the UBL carries that the JSON view does not (see `unmapped` of a received document) is not in the CII either. ' +
      'A received message without a business document is 404 `ubl_not_available`; a received business document that is no UBL invoice or credit note to read is 422 `document_not_convertible`.',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: documentOptionalCompanyQuery,
    responses: {
      200: { description: 'UN/CEFACT CII CrossIndustryInvoice', schema: z.string(), contentType: 'application/xml' },
    },
    errors: ['not_company_member', 'document_not_found', 'ubl_not_available', 'document_not_convertible'],
    handler: async ({ auth, params, query, res }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      const posted = await postedCiiOf(store, document._id);
      if (posted !== null) {
        res.status(200).type('application/xml').send(posted);
        return;
      }
      const written = await deps.cpu.run('ciiOfStoredUbl', { xml: await requireBusinessDocument(store, document) });
      if ('unsupported' in written)
        throw new ApiError(
          'document_not_convertible',
          `Document ${document._id} cannot be written as CII: ${written.unsupported}.`,
        );
      res.status(200).type('application/xml').send(written.cii);
    },
  });
}

function listDocumentAttachmentsRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/attachments',
    operationId: 'listDocumentAttachments',
    summary: 'Attachments of a document (metadata)',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams,
    query: documentOptionalCompanyQuery,
    responses: {
      200: {
        description: 'Attachments',
        schema: z.object({ data: z.array(attachmentSchema) }).openapi('DocumentAttachmentList'),
      },
    },
    errors: ['not_company_member', 'document_not_found'],
    handler: async ({ auth, params, query }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      return { status: 200, body: { data: (await attachmentsOf(store, document._id)).map(attachmentView) } };
    },
  });
}

function getDocumentAttachmentRoute(routes: RouteTable, deps: DocumentRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/documents/{id}/attachments/{attachmentId}',
    operationId: 'getDocumentAttachment',
    summary: 'The raw bytes of an attachment, with its content type',
    tags: ['Documents'],
    limitedKeys: true,
    params: documentParams.extend({ attachmentId: idParam('attachment', 'att_7fQ2LmQ4rT7vW0xY3zA6bC8d') }),
    query: documentOptionalCompanyQuery,
    responses: {
      200: {
        description: 'The file',
        schema: z.string().openapi({ format: 'binary' }),
        contentType: 'application/octet-stream',
      },
    },
    errors: ['not_company_member', 'document_not_found', 'attachment_not_found'],
    handler: async ({ auth, params, query, res }) => {
      const document = await requireDocumentOf(store, auth, params.id, query.company_id);
      const attachment = idPattern('attachment').test(params.attachmentId)
        ? await findAttachment(store, document._id, params.attachmentId)
        : null;
      if (!attachment)
        throw new ApiError(
          'attachment_not_found',
          `Document ${document._id} has no attachment ${params.attachmentId}.`,
          { param: 'attachmentId' },
        );
      res
        .status(200)
        .type(attachment.mime_type)
        .setHeader('Content-Disposition', contentDisposition(attachment.filename))
        .send(Buffer.from(attachment.content, 'base64'));
    },
  });
}

/**
 * RFC 6266: a plain ASCII `filename` for old clients and the exact name as
 * UTF-8 in `filename*` (a header can carry only Latin-1 as it is).
 */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
