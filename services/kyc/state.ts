import type { KycRefusal, KycStatus } from '../../domain/kyc/verification';
import type { CompanyIdentity } from '../../domain/kyc/participant-proof';
import type { Store } from '../../store';
import type { KycDocumentRow } from '../../store/kyc-documents';
import type { KycSubmissionRow } from '../../store/kyc-submissions';
import { listCompanies, type Company } from '../companies';
import { RuleError } from '../errors';

/**
 * Reading a workspace's KYC: its latest submission is its state (`none`
 * before the first), its documents, and its companies, from which the API
 * shows coverage and what is still needed.
 */

/** Each company's identity when the workspace submitted (store/kyc-submissions.ts). */
type SubmittedIdentity = CompanyIdentity & { company_id: string };
export type KycSubmission = Omit<KycSubmissionRow, 'company_identities'> & {
  _id: string;
  company_identities?: SubmittedIdentity[] | null;
};
export type KycDocument = KycDocumentRow & { _id: string };

/** A KYC rule's refusal (domain/kyc/upload-checks.ts, domain/kyc/gates.ts), to be answered with its code. */
export const refusalError = ({ code, message, param, details }: KycRefusal) =>
  new RuleError(code, message, { ...(param !== undefined && { param }), ...(details !== undefined && { details }) });

export async function latestSubmission(store: Store, workspaceId: string): Promise<KycSubmission | null> {
  return store.kycSubmissions.findOne({ workspace_id: workspaceId }).sort({ number: -1 }).lean<KycSubmission>();
}

/** What the rest of the service asks: is the workspace verified, under review, …? */
export async function kycStatusOf(store: Store, workspaceId: string): Promise<KycStatus> {
  return (await latestSubmission(store, workspaceId))?.status ?? 'none';
}

/** Oldest first; the ones the workspace deleted are not among them. */
export async function listKycDocuments(store: Store, workspaceId: string): Promise<KycDocument[]> {
  return store.kycDocuments.find({ workspace_id: workspaceId, deleted_at: null }).sort({ _id: 1 }).lean();
}

export interface KycSnapshot {
  status: KycStatus;
  submission: KycSubmission | null;
  documents: KycDocument[];
  companies: Company[];
}

export async function readKyc(store: Store, workspaceId: string): Promise<KycSnapshot> {
  const [submission, documents, companies] = await Promise.all([
    latestSubmission(store, workspaceId),
    listKycDocuments(store, workspaceId),
    listCompanies(store, workspaceId, null),
  ]);
  return { status: submission?.status ?? 'none', submission, documents, companies };
}
