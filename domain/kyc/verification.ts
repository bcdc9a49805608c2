/**
 * Know-your-customer verification of a workspace: the documents it uploads,
 * the statuses of its review, and what its KYC state shows about both. Pure
 * rules; services/kyc/state*.ts store and move things.
 */

export const KYC_DOC_TYPES = ['registry_extract', 'representative_id', 'authority_proof', 'mandate'] as const;
export type KycDocType = (typeof KYC_DOC_TYPES)[number];

/** Uploaded once for the workspace (no company); every one of them is needed to submit. */
export const WORKSPACE_DOC_TYPES = [
  'registry_extract',
  'representative_id',
  'authority_proof',
] as const satisfies readonly KycDocType[];
export type WorkspaceDocType = (typeof WORKSPACE_DOC_TYPES)[number];

/** `none` is the absence of a submission; a submission is `pending` until the operator decides. */
export const KYC_STATUSES = ['none', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export type ReviewStatus = Exclude<KycStatus, 'none'>;

/** Submitting, and uploading, are open before the first submission and after a rejection. */
export const isOpen = (status: KycStatus): boolean => status === 'none' || status === 'rejected';

/** Largest decoded KYC document (the spec's 10 MB, counted in binary megabytes like attachments). */
export const MAX_KYC_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** The codes a KYC rule refuses with; each is made in exactly one place (kyc-upload.ts, kyc-gates.ts). */
export type KycRefusalCode =
  | 'kyc_missing_content'
  | 'kyc_invalid_encoding'
  | 'kyc_invalid_doc_type'
  | 'kyc_unsupported_type'
  | 'kyc_mime_mismatch'
  | 'kyc_mandate_requires_company'
  | 'kyc_doc_pairing_invalid'
  | 'kyc_document_too_large'
  | 'kyc_no_companies'
  | 'kyc_no_own_company'
  | 'kyc_invalid_company'
  | 'kyc_missing_documents'
  | 'kyc_missing_legal_name'
  | 'kyc_missing_enterprise_number'
  | 'kyc_attestation_incomplete'
  | 'kyc_attestation_not_accepted'
  | 'kyc_attestation_version_mismatch';

export interface KycRefusal {
  code: KycRefusalCode;
  message: string;
  param?: string;
  details?: Record<string, unknown>;
}

/** Workspace document types not uploaded yet, in the order of WORKSPACE_DOC_TYPES. */
export function missingWorkspaceDocTypes(uploaded: Iterable<string>): WorkspaceDocType[] {
  const have = new Set(uploaded);
  return WORKSPACE_DOC_TYPES.filter((type) => !have.has(type));
}

/**
 * Companies covered by a mandate, of the companies there are. The own
 * company counts as covered: it acts for itself and needs no mandate.
 */
export function mandateCoverage(
  companyIds: readonly string[],
  documents: readonly { doc_type: string; company_id?: string | null }[],
  ownCompanyId: string | null,
): { companies_with_mandate: number; total_companies: number } {
  const mandated = new Set(
    documents.filter((document) => document.doc_type === 'mandate').map((document) => document.company_id),
  );
  return {
    companies_with_mandate: companyIds.filter((id) => id === ownCompanyId || mandated.has(id)).length,
    total_companies: companyIds.length,
  };
}
