import type { z as zod } from 'zod';

import { decodeBase64 } from '../../domain/documents/attachments';
import { convertDocument, type SendingCompany } from '../../domain/documents/convert';
import { documentInputSchema, type DocumentInput } from '../../domain/documents/input';
import { sellerIdentityViolations } from '../../domain/documents/sender-identity';
import { issueViolations } from '../../domain/documents/shape-rules';
import type { CompanyIdentity } from '../../domain/kyc/participant-proof';
import type { Violation } from '../../domain/documents/rules';
import { newId } from '../../domain/ids';
import { inputMessage } from '../../domain/input-messages';
import { storedInput, totalsView, type AcceptableDocument } from '../../services/documents/accept';
import { ApiError } from '../http/errors';
import { readJson } from '../http/json-body';
import { z } from '../contract/openapi';
import { listedProblems } from '../http/validation';

/**
 * A posted document, read and converted in two steps that run on a worker
 * thread (api/public/cpu-pool.ts), so a large document never holds the event loop:
 * reading (JSON, then the shape) needs no company; converting (the meaning,
 * totals, UBL) needs the company, which the request looks up in between.
 * Both return plain data; the request turns refusals into errors here, so
 * every problem is still answered as 422 `document_invalid` listing each
 * violation (path, rule, message).
 */

/** A batch holds at most this many documents. */
export const MAX_BATCH = 100;

/**
 * The largest a document may be once stored: its content row holds the
 * input and the UBL (attachments included), and one MongoDB row holds at most
 * 16 MiB, of which this leaves room for the row's own fields.
 */
export const MAX_STORED_DOCUMENT_BYTES = 15 * 1024 * 1024;

/**
 * A batch entry that is a UBL document the client made (api/public/ubl-document.ts reads it), beside the JSON ones;
 * a single one is posted as the body itself (application/xml).
 */
export const ublEntrySchema = z
  .object({
    company_id: documentInputSchema.shape.company_id,
    ubl: z.string().min(1).openapi({
      description:
        'The UBL 2.1 Invoice or CreditNote, its bytes in base64: what `POST /v1/documents` takes as an `application/xml` body',
    }),
    idempotency_key: documentInputSchema.shape.idempotency_key,
  })
  .strict()
  .openapi('UblDocumentEntry');

interface PostedEntry {
  object: true;
  /** The `company_id` as posted: null when present but not a string. */
  companyId: string | null | undefined;
  /** The body's `idempotency_key`, when it is a string. */
  bodyKey: string | undefined;
}

type Shape = { ok: true; input: DocumentInput } | { ok: false; violations: Violation[] };

/** A JSON document read (its `shape`), or the bytes of a UBL document, still to be read and judged. */
export type EntryReading = { object: false } | (PostedEntry & { shape: Shape }) | (PostedEntry & { ubl: Uint8Array });

export type BodyReading =
  { ok: false; invalidJson: string } | { ok: true; array: boolean; length: number; entries: EntryReading[] };

export type Conversion =
  | { ok: true; prepared: AcceptableDocument }
  | { ok: false; violations: Violation[] }
  | { ok: false; storedBytes: number };

/** A parse's findings as violations, in our words with the field's rule (parse `schema` with `{ error: inputMessage }`). */
export const shapeViolations = (error: zod.ZodError, schema: zod.ZodType): Violation[] =>
  error.issues.flatMap((issue) => issueViolations(issue, schema));

/** A batch entry `{ubl}`: its bytes, or why the entry is refused as it stands. */
function readUblEntry(body: object): { ubl: Uint8Array } | { shape: Shape } {
  const parsed = ublEntrySchema.safeParse(body, { error: inputMessage });
  if (!parsed.success) return { shape: { ok: false, violations: shapeViolations(parsed.error, ublEntrySchema) } };
  const bytes = decodeBase64(parsed.data.ubl);
  return bytes
    ? { ubl: bytes }
    : {
        shape: {
          ok: false,
          violations: [{ path: 'ubl', rule: null, message: "ubl must be the UBL document's bytes in base64." }],
        },
      };
}

/** One document of a body; only a batch takes UBL entries (a single UBL document is the body itself). */
function readEntry(body: unknown, batch: boolean): EntryReading {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { object: false };
  const { company_id: companyId, idempotency_key: bodyKey } = body as {
    company_id?: unknown;
    idempotency_key?: unknown;
  };
  const posted = {
    object: true as const,
    companyId: companyId === undefined || typeof companyId === 'string' ? companyId : null,
    bodyKey: typeof bodyKey === 'string' ? bodyKey : undefined,
  };
  if (batch && 'ubl' in body) return { ...posted, ...readUblEntry(body) };
  const parsed = documentInputSchema.safeParse(body, { error: inputMessage });
  return {
    ...posted,
    shape: parsed.success
      ? { ok: true, input: parsed.data }
      : { ok: false, violations: shapeViolations(parsed.error, documentInputSchema) },
  };
}

/** Reads a body of one document, or of a batch (an array; its entries are read only when there are 1 to MAX_BATCH). */
export function readDocumentBody({ bytes, batch }: { bytes: Uint8Array; batch: boolean }): BodyReading {
  const json = readJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (!json.ok) return { ok: false, invalidJson: json.why };
  const body = json.value;
  if (!batch || !Array.isArray(body))
    return { ok: true, array: Array.isArray(body), length: 1, entries: batch ? [] : [readEntry(body, false)] };
  const fits = body.length >= 1 && body.length <= MAX_BATCH;
  return {
    ok: true,
    array: true,
    length: body.length,
    entries: fits ? body.map((entry) => readEntry(entry, true)) : [],
  };
}

/** What a document's content row will hold: its UBL and its input (attachments are inside the UBL). */
export const storedBytesOf = (ubl: string, document: DocumentInput) =>
  Buffer.byteLength(ubl) + Buffer.byteLength(JSON.stringify(storedInput(document)));

/**
 * Checks the meaning, computes the totals and writes the UBL for the company that sends it; a live document
 * (`verifiedSender` given) states no seller identity but the verified one.
 */
export function convertForCompany({
  input,
  company,
  verifiedSender,
}: {
  input: DocumentInput;
  company: SendingCompany;
  verifiedSender?: CompanyIdentity | undefined;
}): Conversion {
  const impersonation = verifiedSender ? sellerIdentityViolations(input.from, verifiedSender, 'json') : [];
  if (impersonation.length > 0) return { ok: false, violations: impersonation };
  const attachmentIds = (input.attachments ?? []).map(() => newId('attachment'));
  const conversion = convertDocument(input, company, attachmentIds);
  if (!conversion.ok) return { ok: false, violations: conversion.violations };
  const storedBytes = storedBytesOf(conversion.ubl, conversion.document);
  if (storedBytes > MAX_STORED_DOCUMENT_BYTES) return { ok: false, storedBytes };
  return {
    ok: true,
    prepared: {
      document: conversion.document,
      totals: totalsView(conversion.calculated),
      ubl: conversion.ubl,
      attachmentIds,
    },
  };
}

/** `more` adds to the details what else explains the refusal (the official rule set that judged a UBL document). */
export function documentRefused(violations: Violation[], more: Record<string, unknown> = {}): ApiError {
  const [first] = violations;
  return new ApiError(
    'document_invalid',
    `The document was refused: ${violations.length} problem${violations.length === 1 ? '' : 's'}; see details.violations.`,
    {
      ...(first?.path && { param: first.path }),
      details: { ...listedProblems('violations', violations), ...more },
    },
  );
}

export function documentTooLarge(storedBytes: number): ApiError {
  return new ApiError(
    'document_too_large',
    `The document converts to ${storedBytes} bytes of UBL and content, over the ${MAX_STORED_DOCUMENT_BYTES} one document may take; send smaller attachments, or split it. Nothing was stored or charged.`,
    { details: { limit_bytes: MAX_STORED_DOCUMENT_BYTES, document_bytes: storedBytes } },
  );
}
