import type { Client } from '@temporalio/client';

import { isOpen, type KycStatus } from '../../domain/kyc/verification';
import { firstFailedGate, type KycSubmitInput } from '../../domain/kyc/gates';
import type { Logger } from '../../platform/logger';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import { kycSubmissionId } from '../../store/kyc-submissions';
import { recordAudit, type Actor } from '../audit';
import { listCompanies } from '../companies';
import { RuleError } from '../errors';
import { latestSubmission, listKycDocuments, refusalError, type KycSubmission } from './state';
import { identityOf } from '../receiving/participant-review';
import { reviewReference, startKycReview } from './review';

export interface KycSubmitDependencies {
  store: Store;
  temporal: Client;
  logger: Logger;
}

/** The one place the refusal is made: the status does not allow it, or another submit won the race. */
const notSubmittable = (status: KycStatus) =>
  new RuleError(
    'kyc_not_submittable',
    status === 'approved'
      ? 'The workspace is verified already.'
      : 'The workspace’s KYC is under review; wait for the decision (GET /v1/kyc).',
    { details: { status } },
  );

/**
 * Submits the workspace for review: from `none` or `rejected`, when every
 * gate passes (domain/kyc/gates.ts). The submission is a new row numbered one
 * after the latest; two submits racing from the same state claim the same
 * number, the row's unique key lets exactly one insert, and the other is
 * refused as if it had come second. Then the review workflow starts; if
 * Temporal cannot be reached, the submission stays pending and the
 * reconciler starts its review.
 */
export async function submitKyc(
  deps: KycSubmitDependencies,
  actor: Actor,
  workspaceId: string,
  input: KycSubmitInput,
): Promise<KycSubmission> {
  const { store } = deps;
  const latest = await latestSubmission(store, workspaceId);
  const from = latest?.status ?? 'none';
  if (!isOpen(from)) throw notSubmittable(from);
  const [companies, documents] = await Promise.all([
    listCompanies(store, workspaceId, null),
    listKycDocuments(store, workspaceId),
  ]);
  const refusal = firstFailedGate(input, {
    companyIds: new Set(companies.map((company) => company._id)),
    uploadedDocTypes: documents.map((document) => document.doc_type),
  });
  if (refusal) throw refusalError(refusal);

  const number = (latest?.number ?? 0) + 1;
  const submission: KycSubmission = {
    _id: kycSubmissionId(workspaceId, number),
    workspace_id: workspaceId,
    number,
    status: 'pending',
    company_id: input.company_id!.trim(),
    legal_name: input.kyc_legal_name!.trim(),
    enterprise_number: input.kyc_enterprise_number!,
    attestation_name: input.attestation_name!.trim(),
    attestation_role: input.attestation_role!.trim(),
    attestation_version: input.attestation_version!,
    company_identities: companies.map((company) => ({ company_id: company._id, ...identityOf(company) })),
    document_ids: documents.map((document) => document._id),
    submitted_by: actor.accountId,
    submitted_at: new Date(),
    reviewed_at: null,
    reject_reason: null,
  };
  try {
    await store.kycSubmissions.create(submission);
  } catch (err) {
    if (isDuplicateKey(err)) throw notSubmittable('pending');
    throw err;
  }
  await recordAudit(store, actor, {
    action: 'kyc.submitted',
    workspaceId,
    target: { type: 'kyc_submission', id: reviewReference(workspaceId, number) },
    details: {
      submission: number,
      from,
      company_id: submission.company_id,
      attestation_version: submission.attestation_version,
    },
  });
  try {
    await startKycReview(deps.temporal, submission);
  } catch (err) {
    deps.logger.error({ err, workspaceId }, 'the KYC review did not start; the reconciler will start it');
  }
  return submission;
}
