import type { ReviewStatus } from '../domain/kyc/verification';
import { liveProvider } from '../platform/peppol/participant-onboarding';
import { recordReviewOutcome, reconcileKycReviews, remindReviewers } from '../services/kyc/review';
import { companiesAwaitingTenant, ensureOrganisation, provisionCompany } from '../services/provisioning';
import type { KycDecision } from '../workflows/shared';
import { syncReceiving } from '../services/receiving/sync';
import type { ActivityDependencies } from './dependencies';

/** The KYC review's side effects: the outcome, onboarding, provisioning; each safe to repeat. */
export function kycActivities({
  store,
  temporal,
  logger,
  smtpUrl,
  mailFrom,
  operatorEmail,
}: Pick<ActivityDependencies, 'store' | 'temporal' | 'logger' | 'smtpUrl' | 'mailFrom' | 'operatorEmail'>) {
  const provider = liveProvider();
  return {
    async recordKycReview(
      workspaceId: string,
      submission: number,
      decision: KycDecision,
    ): Promise<{ status: ReviewStatus; rejectReason: string | null }> {
      const recorded = await recordReviewOutcome(store, workspaceId, submission, decision);
      return { status: recorded.status, rejectReason: recorded.reject_reason ?? null };
    },

    async onboardKycWorkspace(workspaceId: string): Promise<void> {
      await ensureOrganisation(store, provider, workspaceId);
    },

    async companiesToProvision(workspaceId: string): Promise<string[]> {
      return companiesAwaitingTenant(store, workspaceId);
    },

    /** A provider refusal or outage throws, for the retry policy; a deleted company is `gone`. */
    async provisionCompany(companyId: string): Promise<'live' | 'gone'> {
      if (!(await provisionCompany(store, provider, companyId))) return 'gone';
      // A live company becomes a Peppol receiver; when this signal fails, the retried activity sends it again.
      const company = await store.companies.findById(companyId, { workspace_id: 1 }).lean();
      if (company) await syncReceiving(temporal, company);
      return 'live';
    },

    /** One reminder email to the operators; a repeat sends another (the workflow retries only a failed one). */
    async remindKycReviewers(workspaceId: string, submission: number, daysWaiting: number): Promise<void> {
      await remindReviewers({ store, smtpUrl, mailFrom, operatorEmail }, workspaceId, submission, daysWaiting);
    },

    async startMissingKycReviews(): Promise<number> {
      return reconcileKycReviews(store, temporal, logger);
    },
  };
}
