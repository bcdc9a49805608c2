import type { Client } from '@temporalio/client';

import { idPattern } from '../../../domain/ids';
import { KYC_DOC_TYPES, MAX_KYC_DOCUMENT_BYTES } from '../../../domain/kyc/verification';
import { ATTESTATION_VERSION } from '../../../domain/kyc/attestation';
import { KYC_MIME_TYPES } from '../../../domain/kyc/file-types';
import { checkKycUpload } from '../../../domain/kyc/upload-checks';
import type { SecretBox } from '../../../domain/secret-box';
import {
  characterCount,
  isSingleLineText,
  NOT_SINGLE_LINE_MESSAGE,
  SINGLE_LINE,
  SINGLE_LINE_TEXT,
} from '../../../domain/text';
import type { Logger } from '../../../platform/logger';
import { readKyc, refusalError } from '../../../services/kyc/state';
import { deleteKycDocument, uploadKycDocument } from '../../../services/kyc/documents';
import { submitKyc } from '../../../services/kyc/submit';
import type { Store } from '../../../store';
import { companyNotFound, requireCompany, requireMembership, requireRole } from '../access';
import type { AuthContext } from '../authentication';
import { z } from '../../contract/openapi';
import type { RouteTable } from '../route-table';
import { idParam } from '../../contract/schemas';
import { parseInput } from '../../http/validation';
import { kycDocumentSchema, kycDocumentView, kycStateSchema, kycStateView } from '../../contract/views/kyc';

/**
 * KYC of the caller's workspace (the key's home workspace): read it, upload
 * documents, submit it for review. The KYC codes come from the rules in
 * domain/kyc/upload-checks.ts and domain/kyc/gates.ts; the bodies are read leniently
 * here so that a missing or blank field gets its KYC code, not a generic one.
 */

export interface KycRouteDependencies {
  store: Store;
  temporal: Client;
  logger: Logger;
  /** Seals the content of uploaded documents. */
  kycBox: SecretBox;
}

/** A 10 MB file is 13.4 MiB in base64; the rest leaves room for the other fields and escaped JSON. */
const UPLOAD_BODY_BYTES = 16 * 1024 * 1024;

/** Free text of the KYC routes: one line each, since the operator reads it in a table (ops kyc list). */
const kycText = (max: number) =>
  z
    .string()
    .refine((value) => characterCount(value) <= max, `must be at most ${max} characters`)
    .refine(isSingleLineText, NOT_SINGLE_LINE_MESSAGE)
    .nullable()
    .optional();

/** How the description states such a field: one line (the same expressions), `blank` telling whether an empty one is taken. */
const describedLine = (max: number, blank: 'allowed' | 'refused') =>
  z.string().openapi({ maxLength: max, pattern: (blank === 'allowed' ? SINGLE_LINE : SINGLE_LINE_TEXT).source });

/**
 * The pairing rule of domain/kyc/upload-checks.ts stated in JSON Schema, so that a
 * generated client or test sees it: a mandate names its company and grantor
 * (else 400 `kyc_mandate_requires_company`), no other type names either
 * (else 400 `kyc_doc_pairing_invalid`). zod has no conditional schema, so
 * these keywords are added to the described object as they are.
 */
const MANDATE_PAIRING: Record<string, unknown> = {
  if: { properties: { doc_type: { const: 'mandate' } } },
  then: { required: ['company_id', 'mandate_grantor_name'], properties: { company_id: { pattern: '\\S' } } },
  else: { not: { anyOf: [{ required: ['company_id'] }, { required: ['mandate_grantor_name'] }] } },
};

const uploadRequest = z
  .object({
    doc_type: z.enum(KYC_DOC_TYPES),
    filename: describedLine(255, 'allowed')
      .optional()
      .openapi({ description: 'Defaults to the document type and the recognised extension' }),
    content: z.string().openapi({
      format: 'byte',
      minLength: 1,
      description: `The file, base64-encoded; at most ${MAX_KYC_DOCUMENT_BYTES} bytes (10 MB) decoded. PDF, PNG, JPEG or XLSX, recognised by its bytes, never by its name.`,
    }),
    mime_type: z
      .string()
      .max(255)
      .optional()
      .openapi({ description: 'If sent, must be the recognised type', example: KYC_MIME_TYPES.pdf }),
    company_id: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: 'Required for `mandate` (a company of the workspace), refused for the other types' }),
    mandate_grantor_name: describedLine(200, 'refused')
      .optional()
      .openapi({ description: 'Required for `mandate`, refused for the other types' }),
  })
  .openapi('KycDocumentUpload', MANDATE_PAIRING);

/** The same fields as they are read: each KYC rule then names its own code. */
const uploadFields = z
  .object({
    doc_type: z.unknown().optional(),
    content: z.unknown().optional(),
    filename: kycText(255).transform((value) => value ?? undefined),
    mime_type: z.string().max(255).optional(),
    company_id: z.string().max(100).nullable().optional(),
    mandate_grantor_name: kycText(200),
  })
  .strict();

const submitRequest = z
  .object({
    company_id: z
      .string()
      .openapi({ description: 'The workspace’s own company', pattern: idPattern('company').source }),
    kyc_legal_name: describedLine(300, 'refused'),
    kyc_enterprise_number: describedLine(100, 'refused').openapi({ description: 'Stored verbatim, no format check' }),
    attestation_name: describedLine(200, 'refused').openapi({ description: 'Who signs the attestation' }),
    attestation_role: describedLine(200, 'refused').openapi({
      description: 'The signer’s role at the entity',
      example: 'Managing director',
    }),
    attested: z.literal(true).openapi({ description: 'The signer confirms the attestation text (GET /v1/kyc)' }),
    attestation_version: z
      .string()
      .max(50)
      .openapi({ description: 'Must equal `attestation.current_version`', example: ATTESTATION_VERSION }),
  })
  .openapi('KycSubmitRequest');

const submitFields = z
  .object({
    company_id: z.string().max(100).nullable().optional(),
    kyc_legal_name: kycText(300),
    kyc_enterprise_number: kycText(100),
    attestation_name: kycText(200),
    attestation_role: kycText(200),
    attested: z.unknown().optional(),
    attestation_version: z.string().max(50).nullable().optional(),
  })
  .strict();

const WRITERS = ['owner', 'admin'] as const;

async function requireWriter(store: Store, auth: AuthContext, action: string): Promise<void> {
  const { role } = await requireMembership(store, auth, auth.workspaceId);
  requireRole(role, WRITERS, action);
}

export function kycRoutes(routes: RouteTable, deps: KycRouteDependencies): void {
  getKycRoute(routes, deps);
  uploadKycDocumentRoute(routes, deps);
  deleteKycDocumentRoute(routes, deps);
  submitKycRoute(routes, deps);
}

function getKycRoute(routes: RouteTable, deps: KycRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'get',
    path: '/v1/kyc',
    operationId: 'getKyc',
    summary: "The KYC state of the caller's workspace",
    tags: ['KYC'],
    responses: { 200: { description: 'The KYC state', schema: kycStateSchema } },
    errors: ['workspace_not_found'],
    handler: async ({ auth }) => {
      await requireMembership(store, auth, auth.workspaceId);
      return { status: 200, body: kycStateView(await readKyc(store, auth.workspaceId)) };
    },
  });
}

function uploadKycDocumentRoute(routes: RouteTable, deps: KycRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/kyc/documents',
    operationId: 'uploadKycDocument',
    summary: 'Upload a KYC document (owner or admin)',
    description:
      'Workspace documents (`registry_extract`, `representative_id`, `authority_proof`) carry no company; a `mandate` names the company it covers and its grantor. ' +
      'Checked in this order: `doc_type`, its pairing with a company, then the file (present, base64, size, type by its bytes, declared `mime_type`); file problems name the parameter `file`. ' +
      'Uploads are locked (409 `kyc_locked`) while the review is pending and once approved. ' +
      '`filename` and `mandate_grantor_name` are one line each (no control character but tab).',
    tags: ['KYC'],
    unparsedBody: uploadRequest,
    bodyLimit: UPLOAD_BODY_BYTES,
    responses: { 201: { description: 'The stored document', schema: kycDocumentSchema } },
    errors: [
      'insufficient_role',
      'workspace_not_found',
      'kyc_invalid_doc_type',
      'kyc_mandate_requires_company',
      'kyc_doc_pairing_invalid',
      'kyc_missing_content',
      'kyc_invalid_encoding',
      'kyc_document_too_large',
      'kyc_unsupported_type',
      'kyc_mime_mismatch',
      'company_not_found',
      'kyc_locked',
    ],
    handler: async ({ auth, body }) => {
      await requireWriter(store, auth, 'upload KYC documents');
      const checked = checkKycUpload(parseInput(uploadFields, body, 'body'));
      if ('refusal' in checked) throw refusalError(checked.refusal);
      const { upload } = checked;
      if (upload.companyId !== null) {
        const { company } = await requireCompany(store, auth, upload.companyId, 'company_id');
        if (company.workspace_id !== auth.workspaceId) throw companyNotFound(upload.companyId, 'company_id');
      }
      const document = await uploadKycDocument(store, deps.kycBox, auth.actor, auth.workspaceId, upload);
      return { status: 201, body: kycDocumentView(document) };
    },
  });
}

function deleteKycDocumentRoute(routes: RouteTable, deps: KycRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'delete',
    path: '/v1/kyc/documents/{id}',
    operationId: 'deleteKycDocument',
    summary: 'Delete a KYC document before submitting (owner or admin)',
    description:
      'A document uploaded by mistake, or to be replaced (upload the new one, delete this one), is deleted while the workspace may submit: ' +
      'it is no longer listed, counted by `requirements` or part of the next submission. Refused with 409 `kyc_locked` while the review is pending and once approved. ' +
      "Audited as `kyc.document_deleted`. Another workspace's document is 404 `kyc_document_not_found`, as one that does not exist.",
    tags: ['KYC'],
    params: z.object({ id: idParam('kycDocument', 'kyd_0mhx3k2a1bQ8sV7yT2nR4kLp') }),
    responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.literal(true), id: z.string() }) } },
    errors: ['insufficient_role', 'workspace_not_found', 'kyc_document_not_found', 'kyc_locked'],
    handler: async ({ auth, params }) => {
      await requireWriter(store, auth, 'delete KYC documents');
      await deleteKycDocument(store, auth.actor, auth.workspaceId, params.id);
      return { status: 200, body: { deleted: true as const, id: params.id } };
    },
  });
}

function submitKycRoute(routes: RouteTable, deps: KycRouteDependencies): void {
  const { store } = deps;
  routes.add({
    method: 'post',
    path: '/v1/kyc/submit',
    operationId: 'submitKyc',
    summary: 'Submit the workspace for KYC review (owner or admin)',
    description:
      'Allowed from `none` or `rejected` (else 409 `kyc_not_submittable`, also for the loser of two submits at once). ' +
      'The gates are checked in this order and the first that fails names the answer: a company exists; `company_id` is given; it is a company of the workspace; ' +
      'the three workspace documents are uploaded (`details.missing`); legal name; enterprise number; attestation name and role; `attested` is true; the attestation version is current. ' +
      'Mandates never hold a submission back. An operator then approves or rejects it. ' +
      'Each text field is one line: a control character other than tab (CR and LF included) is 400 `invalid_field` naming the field.',
    tags: ['KYC'],
    unparsedBody: submitRequest,
    responses: { 200: { description: 'The KYC state, now `pending`', schema: kycStateSchema } },
    errors: [
      'insufficient_role',
      'workspace_not_found',
      'kyc_not_submittable',
      'kyc_no_companies',
      'kyc_no_own_company',
      'kyc_invalid_company',
      'kyc_missing_documents',
      'kyc_missing_legal_name',
      'kyc_missing_enterprise_number',
      'kyc_attestation_incomplete',
      'kyc_attestation_not_accepted',
      'kyc_attestation_version_mismatch',
    ],
    handler: async ({ auth, body }) => {
      await requireWriter(store, auth, 'submit the workspace for KYC review');
      await submitKyc(deps, auth.actor, auth.workspaceId, parseInput(submitFields, body, 'body'));
      return { status: 200, body: kycStateView(await readKyc(store, auth.workspaceId)) };
    },
  });
}
