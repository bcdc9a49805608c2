import {
  identityStanding,
  sameIdentity,
  type CompanyIdentity,
  type IdentityStanding,
  type ParticipantProof,
} from '../../domain/kyc/participant-proof';
import type { Store } from '../../store';
import type { CompanyRow } from '../../store/companies';
import type { KycDecision } from '../../workflows/shared';
import { recordAudit, type Actor } from '../audit';
import { listCompanies } from '../companies';

/**
 * Proving that a live company's Peppol participant id is its own
 * (domain/kyc/participant-proof.ts), and the operator's review when nothing
 * proves it. The company's receiving workflow is the one writer of the
 * review: it opens one when its plan meets an identity no proof covers, waits
 * for the operator's signal, and records the decision here. The API never
 * writes these fields; a change of the company only signals that workflow.
 */

type IdentityRow = Pick<CompanyRow, 'peppol_id' | 'company_registration_id' | 'tax_id'> & {
  name?: string | null | undefined;
};
type ReviewedCompany = IdentityRow & Pick<CompanyRow, 'verified_identity' | 'participant_review'>;

export const identityOf = (row: IdentityRow): CompanyIdentity => ({
  peppol_id: row.peppol_id ?? null,
  name: row.name ?? null,
  company_registration_id: row.company_registration_id ?? null,
  tax_id: row.tax_id ?? null,
});

/** Where the company's participant id stands. */
export function standingOf(company: ReviewedCompany): IdentityStanding {
  const review = company.participant_review;
  return identityStanding(
    identityOf(company),
    company.verified_identity ? identityOf(company.verified_identity) : null,
    review ? { status: review.status, identity: identityOf(review.identity), reason: review.reason ?? null } : null,
  );
}

/** The filter that matches the company only while its identity is still `identity` (stored values, as read). */
const whileIdentityIs = (companyId: string, identity: CompanyIdentity) => ({
  _id: companyId,
  deleted_at: null,
  peppol_id: identity.peppol_id,
  name: identity.name,
  company_registration_id: identity.company_registration_id,
  tax_id: identity.tax_id,
});

/** Who opens a review in the audit trail: the receiving workflow, for the company. */
const RECEIVING: Actor = { accountId: 'system:receiving', keyPrefix: null };
/** Who decided, when the signal names nobody (sent by hand from the Web UI). */
const UNNAMED_REVIEWER = 'operator:participant-review';

/**
 * What the workspace's KYC approval verified: the identity each of its companies had when the workspace
 * submitted (what the operator reviewed), if it still has it when the decision is made. A company changed
 * between the submission and the decision, changed since, or created later is not covered, and its
 * participant id waits for a review of its own. Safe to repeat: a company verified already is left alone.
 */
export async function recordVerifiedAtApproval(
  store: Store,
  workspaceId: string,
  decidedAt: Date,
  submitted?: (CompanyIdentity & { company_id: string })[],
): Promise<void> {
  const companies = await listCompanies(store, workspaceId, null);
  const reviewed = (company: CompanyRow & { _id: string }) => {
    if (!submitted) return true; // Submitted before the identities were kept: as it stood at the decision.
    const asSubmitted = submitted.find((entry) => entry.company_id === company._id);
    // Submitted before names were kept: the name as it stood at the decision, as then.
    return (
      !!asSubmitted &&
      sameIdentity(identityOf(company), { ...identityOf(asSubmitted), name: asSubmitted.name ?? company.name })
    );
  };
  for (const company of companies) {
    if (company.verified_identity || company.updated_at > decidedAt || !reviewed(company)) continue;
    await store.companies.updateOne(
      { _id: company._id, updated_at: company.updated_at, verified_identity: null },
      { $set: { verified_identity: { ...identityOf(company), by: 'kyc', reviewer: null, at: decidedAt } } },
    );
  }
}

/**
 * Opens the operator's review of the company's identity as the plan read it, once per identity (the
 * receiving workflow is its one writer, so a read and a write suffice); audited. False when the company
 * changed meanwhile (its workflow plans again).
 */
export async function openParticipantReview(
  store: Store,
  companyId: string,
  identity: CompanyIdentity,
  why: string,
): Promise<boolean> {
  const company = await store.companies.findById(companyId, { participant_review: 1, workspace_id: 1 }).lean();
  const open = company?.participant_review;
  if (open?.status === 'pending' && sameIdentity(identityOf(open.identity), identity)) return true;
  const { modifiedCount } = await store.companies.updateOne(whileIdentityIs(companyId, identity), {
    $set: {
      participant_review: {
        status: 'pending',
        identity,
        reason: why,
        requested_at: new Date(),
        decided_at: null,
        reviewer: null,
      },
    },
  });
  if (modifiedCount === 0 || !company) return false;
  await recordAudit(store, RECEIVING, {
    action: 'company.participant_review_requested',
    workspaceId: company.workspace_id,
    target: { type: 'company', id: companyId },
    details: { ...identity, reason: why },
  });
  return true;
}

export type ParticipantDecisionOutcome = 'approved' | 'rejected' | 'stale';

const MAX_REASON_LENGTH = 1000;
const DEFAULT_REJECT_REASON =
  'The review could not confirm that this Peppol id belongs to the company; contact support for the details.';

/**
 * Records the operator's decision on the pending review of `identity` (one conditional update: it lands
 * only while the company still has that identity and the review is pending). Approval makes the identity
 * the verified one. `stale` when the company changed meanwhile: the decision was about something else.
 * A retried call finds its own decision and answers it again.
 */
export async function recordParticipantDecision(
  store: Store,
  companyId: string,
  identity: CompanyIdentity,
  { decision, reason, operator }: KycDecision,
): Promise<ParticipantDecisionOutcome> {
  const status = decision === 'approve' ? 'approved' : 'rejected';
  const now = new Date();
  const reviewer = operator?.trim().slice(0, 100) || UNNAMED_REVIEWER;
  const rejectReason =
    status === 'rejected' ? reason?.trim().slice(0, MAX_REASON_LENGTH) || DEFAULT_REJECT_REASON : null;
  const { modifiedCount } = await store.companies.updateOne(
    { ...whileIdentityIs(companyId, identity), 'participant_review.status': 'pending' },
    {
      $set: {
        'participant_review.status': status,
        'participant_review.decided_at': now,
        'participant_review.reviewer': reviewer,
        ...(rejectReason !== null && { 'participant_review.reason': rejectReason }),
        ...(status === 'approved' && { verified_identity: { ...identity, by: 'operator', reviewer, at: now } }),
      },
    },
  );
  const company = await store.companies.findById(companyId, { participant_review: 1, workspace_id: 1 }).lean();
  const review = company?.participant_review;
  if (!company || !review || review.status !== status || !sameIdentity(identityOf(review.identity), identity))
    return 'stale';
  if (modifiedCount > 0) {
    await recordAudit(
      store,
      { accountId: reviewer, keyPrefix: null },
      {
        action: status === 'approved' ? 'company.participant_review_approved' : 'company.participant_review_rejected',
        workspaceId: company.workspace_id,
        target: { type: 'company', id: companyId },
        details: { ...identity, ...(rejectReason !== null && { reason: rejectReason }) },
      },
    );
  }
  return status;
}

/** How a registered participant was proven, in the audit trail's words. */
export const proofDetails = (proof: ParticipantProof) =>
  proof.by === 'verified_peppol_id'
    ? { proof: proof.by }
    : { proof: proof.by, scheme: proof.scheme, register: proof.register };

export interface PendingParticipantReview {
  company_id: string;
  workspace_id: string;
  name: string;
  /** The identity under review, and what was verified before (null: nothing). */
  identity: CompanyIdentity;
  verified: CompanyIdentity | null;
  why: string;
  requested_at: Date;
}

/** The reviews waiting for an operator, oldest first (the ops CLI's list). */
export async function pendingParticipantReviews(store: Store, limit = 500): Promise<PendingParticipantReview[]> {
  const rows = await store.companies
    .find({ 'participant_review.status': 'pending' })
    .sort({ 'participant_review.requested_at': 1 })
    .limit(limit)
    .lean();
  return rows
    .filter((row) => !row.deleted_at && row.participant_review)
    .map((row) => ({
      company_id: row._id,
      workspace_id: row.workspace_id,
      name: row.name,
      identity: identityOf(row.participant_review!.identity),
      verified: row.verified_identity ? identityOf(row.verified_identity) : null,
      why: row.participant_review!.reason ?? '',
      requested_at: row.participant_review!.requested_at,
    }));
}
