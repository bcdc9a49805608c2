import {
  isOpen,
  KYC_DOC_TYPES,
  KYC_STATUSES,
  mandateCoverage,
  missingWorkspaceDocTypes,
  WORKSPACE_DOC_TYPES,
} from '../../../domain/kyc/verification';
import { ATTESTATION_TEXT, ATTESTATION_VERSION } from '../../../domain/kyc/attestation';
import type { KycDocument, KycSnapshot } from '../../../services/kyc/state';
import { reviewReference } from '../../../services/kyc/review';
import { z } from '../openapi';

const timestamp = z.string().openapi({ format: 'date-time' });

export const kycDocumentSchema = z
  .object({
    id: z.string().openapi({ example: 'kyd_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    company_id: z
      .string()
      .nullable()
      .openapi({ description: 'The company a mandate covers; null for the workspace’s own documents' }),
    doc_type: z.enum(KYC_DOC_TYPES),
    filename: z.string(),
    mime_type: z.string().openapi({ description: 'The type recognised from the bytes', example: 'application/pdf' }),
    size_bytes: z.number().int(),
    mandate_grantor_name: z.string().nullable().openapi({ description: 'Who granted the mandate; only for `mandate`' }),
    created_at: timestamp,
  })
  .openapi('KycDocument');

export const kycStateSchema = z
  .object({
    status: z.enum(KYC_STATUSES).openapi({
      description:
        '`none` until the first submission; `pending` while the operator reviews it; then `approved` (final) or `rejected`',
    }),
    company_id: z.string().nullable().openapi({ description: 'The own company named by the latest submission' }),
    submitted_at: timestamp.nullable(),
    reviewed_at: timestamp.nullable(),
    reject_reason: z
      .string()
      .nullable()
      .openapi({ description: 'Why the review rejected the submission (status `rejected`)' }),
    review_reference: z.string().nullable().openapi({
      description: 'Names the review of the latest submission, for support',
      example: 'kyc-wsp_8bYt2LqX0mN4vR6sD1kP9wZc#1',
    }),
    legal_name: z.string().nullable(),
    enterprise_number: z.string().nullable().openapi({ description: 'As submitted, verbatim' }),
    attestation: z.object({
      name: z.string().nullable(),
      role: z.string().nullable(),
      version: z.string().nullable().openapi({ description: 'The version the latest submission accepted' }),
      current_version: z.string().openapi({ example: ATTESTATION_VERSION }),
      text: z.string().openapi({ description: 'The full text of the current version: what the signer confirms' }),
    }),
    documents: z
      .array(kycDocumentSchema)
      .openapi({ description: 'Every KYC document uploaded and not deleted, oldest first' }),
    mandate_coverage: z
      .object({
        companies_with_mandate: z
          .number()
          .int()
          .openapi({ description: 'Companies with a mandate document; the own company counts, as it needs none' }),
        total_companies: z.number().int(),
      })
      .openapi({
        description:
          'Informational: mandates never hold back a submission. Follows companies and uploads as they change.',
      }),
    requirements: z
      .object({
        has_company: z.boolean().openapi({ description: 'The workspace has at least one company' }),
        own_company_id: z
          .string()
          .nullable()
          .openapi({ description: 'The own company of the latest submission, while it exists' }),
        missing_workspace_doc_types: z
          .array(z.enum(WORKSPACE_DOC_TYPES))
          .openapi({ description: 'Workspace documents still to upload' }),
        can_submit: z.boolean().openapi({
          description:
            'Status `none` or `rejected`, a company, and no missing document: what the stored data allows. The submitted fields are checked on submit.',
        }),
      })
      .openapi({ description: 'What submitting still needs, from what is stored now' }),
  })
  .openapi('KycState');

export function kycDocumentView(document: KycDocument): z.infer<typeof kycDocumentSchema> {
  return {
    id: document._id,
    company_id: document.company_id ?? null,
    doc_type: document.doc_type,
    filename: document.filename,
    mime_type: document.mime_type,
    size_bytes: document.size_bytes,
    mandate_grantor_name: document.mandate_grantor_name ?? null,
    created_at: document.created_at.toISOString(),
  };
}

export function kycStateView({
  status,
  submission,
  documents,
  companies,
}: KycSnapshot): z.infer<typeof kycStateSchema> {
  const companyIds = companies.map((company) => company._id);
  const ownCompanyId = submission && companyIds.includes(submission.company_id) ? submission.company_id : null;
  const missing = missingWorkspaceDocTypes(documents.map((document) => document.doc_type));
  return {
    status,
    company_id: submission?.company_id ?? null,
    submitted_at: submission?.submitted_at.toISOString() ?? null,
    reviewed_at: submission?.reviewed_at?.toISOString() ?? null,
    reject_reason: submission?.reject_reason ?? null,
    review_reference: submission ? reviewReference(submission.workspace_id, submission.number) : null,
    legal_name: submission?.legal_name ?? null,
    enterprise_number: submission?.enterprise_number ?? null,
    attestation: {
      name: submission?.attestation_name ?? null,
      role: submission?.attestation_role ?? null,
      version: submission?.attestation_version ?? null,
      current_version: ATTESTATION_VERSION,
      text: ATTESTATION_TEXT,
    },
    documents: documents.map(kycDocumentView),
    mandate_coverage: mandateCoverage(companyIds, documents, ownCompanyId),
    requirements: {
      has_company: companyIds.length > 0,
      own_company_id: ownCompanyId,
      missing_workspace_doc_types: missing,
      can_submit: isOpen(status) && companyIds.length > 0 && missing.length === 0,
    },
  };
}
