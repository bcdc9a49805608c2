import type { Client } from '@temporalio/client';
import type { Logger } from '../platform/logger';

import { convertDocument, type Conversion } from '../domain/documents/convert';
import { documentInputSchema, type DocumentInput } from '../domain/documents/input';
import type { Violation } from '../domain/documents/rules';
import { startSendWorkflow } from '../platform/temporal';
import { acceptDocument, markWorkflowStarted, totalsView } from '../services/documents';
import type { Store } from '../store';
import { requireDocumentCompany } from './access';
import type { AuthContext } from './authentication';
import { ApiError } from './errors';
import { idPattern, newId } from '../domain/ids';
import { invalidField, missingField } from './validation';

/**
 * Parsing, checking, converting and accepting one posted document: shared by
 * the single and batch endpoints and (without accepting) by validation.
 */

export interface SubmissionContext {
  store: Store;
  temporal: Client;
  deliveryWindowSeconds: number;
  logger: Logger;
}

export interface Submitted {
  status: 200 | 202;
  body: { id: string; url: string; status: string };
}

const shapeViolations = (issues: { path: PropertyKey[]; message: string }[]): Violation[] =>
  issues.map((issue) => ({
    path: issue.path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), ''),
    rule: null,
    message: issue.message,
  }));

function refuse(violations: Violation[]): ApiError {
  const [first] = violations;
  return new ApiError('document_invalid', `The document was refused: ${violations.length} problem${violations.length === 1 ? '' : 's'}; see details.violations.`, {
    ...(first?.path && { param: first.path }),
    details: { violations },
  });
}

/** The company the body names, checked before anything else is looked at. */
async function companyOf(store: Store, auth: AuthContext, body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidField('body', 'The body must be a JSON object (a document).');
  const companyId = (body as { company_id?: unknown }).company_id;
  if (companyId === undefined) throw missingField('company_id', 'company_id is required.');
  if (typeof companyId !== 'string' || !idPattern('company').test(companyId)) throw invalidField('company_id', 'company_id must be a company id (com_…).');
  return requireDocumentCompany(store, auth, companyId);
}

/** Parse and convert; 422 with every violation when the document is refused. */
async function prepare(store: Store, auth: AuthContext, body: unknown, attachmentIds: string[]) {
  const company = await companyOf(store, auth, body);
  if (auth.environment === 'live') {
    throw new ApiError('workspace_not_verified', 'This workspace is not verified for live sending yet (KYC). Use the sandbox host to test.');
  }
  const parsed = documentInputSchema.safeParse(body);
  if (!parsed.success) throw refuse(shapeViolations(parsed.error.issues));
  const conversion: Conversion = convertDocument(parsed.data, company, attachmentIds);
  if (!conversion.ok) throw refuse(conversion.violations);
  return { company, conversion };
}

export async function validateOnly(context: SubmissionContext, auth: AuthContext, body: unknown) {
  try {
    const { conversion } = await prepare(context.store, auth, body, []);
    return { valid: true, violations: [], ubl: conversion.ubl, totals: totalsView(conversion.calculated) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'document_invalid') {
      return { valid: false, violations: (err.options.details as { violations: Violation[] }).violations, ubl: null, totals: null };
    }
    throw err;
  }
}

export async function submitDocument(
  context: SubmissionContext,
  auth: AuthContext,
  origin: string,
  body: unknown,
  headerKey: string | undefined,
): Promise<Submitted> {
  const { store } = context;
  const bodyKey = typeof body === 'object' && body !== null ? (body as { idempotency_key?: unknown }).idempotency_key : undefined;
  if (headerKey !== undefined && typeof bodyKey === 'string' && bodyKey !== headerKey) {
    throw invalidField('idempotency_key', 'The Idempotency-Key header and idempotency_key in the body differ; send one.');
  }
  const attachmentCount = Array.isArray((body as { attachments?: unknown } | null)?.attachments) ? (body as { attachments: unknown[] }).attachments.length : 0;
  const attachmentIds = Array.from({ length: Math.min(attachmentCount, 10) }, () => newId('attachment'));
  const { company, conversion } = await prepare(store, auth, body, attachmentIds);
  const document: DocumentInput = conversion.document;
  const key = headerKey ?? document.idempotency_key;

  const accepted = await acceptDocument(
    store,
    { accountId: auth.accountId, accountEmail: auth.email, keyPrefix: auth.keyPrefix, workspaceId: company.workspace_id, environment: auth.environment },
    company,
    document,
    { calculated: conversion.calculated, ubl: conversion.ubl, attachmentIds },
    key,
  );
  const url = `${origin}/v1/documents/${accepted.id}?company_id=${company._id}`;
  if (!accepted.created) return { status: 200, body: { id: accepted.id, url, status: 'queued' } };

  try {
    await startSendWorkflow(context.temporal, accepted.sendable, context.deliveryWindowSeconds);
    await markWorkflowStarted(store, accepted.id);
  } catch (err) {
    // Accepted and stored: the reconciler schedule starts the workflow later.
    context.logger.error({ err, documentId: accepted.id }, 'could not start the send workflow; the reconciler will');
  }
  return { status: 202, body: { id: accepted.id, url, status: accepted.status } };
}
