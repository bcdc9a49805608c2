import { missingWorkspaceDocTypes, type KycRefusal } from './verification';
import { ATTESTATION_VERSION } from './attestation';

/**
 * The gates of a KYC submission, in the spec's order; the first that fails
 * names the refusal. Mandates never gate: they are shown as coverage only.
 */

export interface KycSubmitInput {
  company_id?: string | null | undefined;
  kyc_legal_name?: string | null | undefined;
  kyc_enterprise_number?: string | null | undefined;
  attestation_name?: string | null | undefined;
  attestation_role?: string | null | undefined;
  attested?: unknown;
  attestation_version?: string | null | undefined;
}

/** What the store knows when the submission is made. */
export interface SubmissionFacts {
  /** The workspace's companies (not deleted). */
  companyIds: ReadonlySet<string>;
  uploadedDocTypes: Iterable<string>;
}

const blank = (value: string | null | undefined) => value === undefined || value === null || value.trim() === '';

type Gate = (input: KycSubmitInput, facts: SubmissionFacts) => KycRefusal | undefined;

const GATES: Gate[] = [
  (_input, facts) =>
    facts.companyIds.size === 0
      ? { code: 'kyc_no_companies', message: 'Create the workspace’s own company first (POST /v1/companies).' }
      : undefined,
  (input) =>
    blank(input.company_id)
      ? {
          code: 'kyc_no_own_company',
          message: 'company_id must name the workspace’s own company.',
          param: 'company_id',
        }
      : undefined,
  (input, facts) =>
    facts.companyIds.has(input.company_id!.trim())
      ? undefined
      : {
          code: 'kyc_invalid_company',
          message: `${input.company_id} is not a company of this workspace.`,
          param: 'company_id',
        },
  (_input, facts) => {
    const missing = missingWorkspaceDocTypes(facts.uploadedDocTypes);
    return missing.length === 0
      ? undefined
      : {
          code: 'kyc_missing_documents',
          message: `Upload these documents first (POST /v1/kyc/documents): ${missing.join(', ')}.`,
          details: { missing },
        };
  },
  (input) =>
    blank(input.kyc_legal_name)
      ? {
          code: 'kyc_missing_legal_name',
          message: 'kyc_legal_name must be the entity’s legal name.',
          param: 'kyc_legal_name',
        }
      : undefined,
  (input) =>
    blank(input.kyc_enterprise_number)
      ? {
          code: 'kyc_missing_enterprise_number',
          message: 'kyc_enterprise_number must be the entity’s registration number.',
          param: 'kyc_enterprise_number',
        }
      : undefined,
  (input) =>
    blank(input.attestation_name) || blank(input.attestation_role)
      ? {
          code: 'kyc_attestation_incomplete',
          message: 'The attestation needs the signer’s name and role (attestation_name, attestation_role).',
          param: blank(input.attestation_name) ? 'attestation_name' : 'attestation_role',
        }
      : undefined,
  (input) =>
    input.attested === true
      ? undefined
      : {
          code: 'kyc_attestation_not_accepted',
          message: 'Read the attestation text and send attested: true.',
          param: 'attested',
        },
  (input) =>
    input.attestation_version === ATTESTATION_VERSION
      ? undefined
      : {
          code: 'kyc_attestation_version_mismatch',
          message: `The attestation in force is version ${ATTESTATION_VERSION} (GET /v1/kyc shows its text); send attestation_version: "${ATTESTATION_VERSION}".`,
          param: 'attestation_version',
          details: { current_version: ATTESTATION_VERSION },
        },
];

export function firstFailedGate(input: KycSubmitInput, facts: SubmissionFacts): KycRefusal | undefined {
  for (const gate of GATES) {
    const refusal = gate(input, facts);
    if (refusal) return refusal;
  }
  return undefined;
}
