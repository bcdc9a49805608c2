import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';

import { ProviderError, type LiveProvider } from '../platform/peppol/participant-onboarding';
import type { Logger } from '../platform/logger';
import { startWorkflow } from '../platform/workflow-port';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import { provisionWorkflowId, SEARCH_ATTRIBUTES } from '../workflows/shared';
import { recordAudit, type Actor } from './audit';
import { syncReceiving } from './receiving/sync';
import { findCompany, listCompanies, type Company } from './companies';
import { RuleError } from './errors';
import { kycStatusOf, latestSubmission } from './kyc/state';

/**
 * Putting an approved workspace and its companies on the live provider, and
 * what we keep of it: an organisation row per workspace and a tenant row per
 * company (store/provider-tenants.ts). A company is live exactly when its
 * tenant row exists. Each step asks the provider first and records its
 * answer under the business key, so repeating a step (a retried activity, a
 * company created while its workspace is being approved) is harmless.
 */

export interface ProvisioningDependencies {
  store: Store;
  provider: LiveProvider;
  temporal: Client;
  logger: Logger;
}

const PROVISIONING: Actor = { accountId: 'system:provisioning', keyPrefix: null };

/** The workspace's organisation at the provider, onboarded on first need (only once approved). */
export async function ensureOrganisation(store: Store, provider: LiveProvider, workspaceId: string): Promise<string> {
  const existing = await store.providerOrganisations.findById(workspaceId).lean();
  if (existing) return existing.organisation_id;
  const submission = await latestSubmission(store, workspaceId);
  if (submission?.status !== 'approved')
    throw new Error(`workspace ${workspaceId} is not KYC-approved; it cannot be onboarded`);
  const { organisationId } = await provider.onboardWorkspace({
    workspaceId,
    legalName: submission.legal_name,
    enterpriseNumber: submission.enterprise_number,
  });
  try {
    await store.providerOrganisations.create({
      _id: workspaceId,
      organisation_id: organisationId,
      created_at: new Date(),
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  return organisationId;
}

/** Provisions the company unless it is live already; false when it is gone (deleted), which no retry changes. */
export async function provisionCompany(store: Store, provider: LiveProvider, companyId: string): Promise<boolean> {
  if (await store.providerTenants.findById(companyId, { _id: 1 }).lean()) return true;
  const company = await findCompany(store, companyId);
  if (!company) return false;
  const organisationId = await ensureOrganisation(store, provider, company.workspace_id);
  const { tenantId } = await provider.provisionCompany(organisationId, {
    companyId,
    name: company.name,
    country: company.country,
    peppolId: company.peppol_id ?? null,
    taxId: company.tax_id ?? null,
  });
  const now = new Date();
  try {
    await store.providerTenants.create({
      _id: companyId,
      workspace_id: company.workspace_id,
      tenant_id: tenantId,
      participant_id: company.peppol_id ?? null,
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    if (isDuplicateKey(err)) return true;
    throw err;
  }
  await recordAudit(store, PROVISIONING, {
    action: 'company.provisioned',
    workspaceId: company.workspace_id,
    target: { type: 'company', id: companyId },
    details: { tenant_id: tenantId },
  });
  return true;
}

/** Which of these companies have a tenant. */
export async function liveCompanyIds(store: Store, companyIds: string[]): Promise<Set<string>> {
  if (companyIds.length === 0) return new Set();
  const tenants = await store.providerTenants.find({ _id: { $in: companyIds } }, { _id: 1 }).lean();
  return new Set(tenants.map((tenant) => tenant._id));
}

/** The workspace's companies without a tenant, oldest first. */
export async function companiesAwaitingTenant(store: Store, workspaceId: string): Promise<string[]> {
  const ids = (await listCompanies(store, workspaceId, null)).map((company) => company._id).reverse();
  const live = await liveCompanyIds(store, ids);
  return ids.filter((id) => !live.has(id));
}

async function startProvisionWorkflow(temporal: Client, company: Company): Promise<void> {
  await startWorkflow(temporal, 'provisionCompanyWorkflow', {
    workflowId: provisionWorkflowId(company._id),
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
    input: { companyId: company._id },
    typedSearchAttributes: [
      { key: SEARCH_ATTRIBUTES.workspaceId, value: company.workspace_id },
      { key: SEARCH_ATTRIBUTES.companyId, value: company._id },
    ],
    staticSummary: `Provisioning ${company.name} (${company._id}) with the live provider`,
  });
}

/**
 * A company created in an approved workspace is provisioned at once, best
 * effort: true when it is live now. When the provider does not take it, its
 * own workflow keeps retrying and the company starts out not live.
 */
export async function provisionOnCreate(deps: ProvisioningDependencies, company: Company): Promise<boolean> {
  if ((await kycStatusOf(deps.store, company.workspace_id)) !== 'approved') return false;
  try {
    const live = await provisionCompany(deps.store, deps.provider, company._id);
    if (live) await changedForReceiving(deps, company);
    return live;
  } catch (err) {
    deps.logger.warn({ err, companyId: company._id }, 'provisioning a new company failed; its workflow retries');
    await startProvisionWorkflow(deps.temporal, company).catch((startErr: unknown) =>
      deps.logger.error(
        { err: startErr, companyId: company._id },
        'could not start the provisioning workflow of a new company',
      ),
    );
    return false;
  }
}

/** Best effort: the company's receiver registration follows a change (a failed signal is logged; the next change repairs it). */
export async function changedForReceiving(
  deps: ProvisioningDependencies,
  company: Pick<Company, '_id' | 'workspace_id'>,
): Promise<void> {
  await syncReceiving(deps.temporal, company).catch((err: unknown) =>
    deps.logger.error({ err, companyId: company._id }, 'could not signal the receiver registration workflow'),
  );
}

/**
 * A live company's new Peppol id is pushed to the provider before anything
 * is stored: when the provider does not take it, the change is refused
 * (502 provider_update_failed) and nothing changes. A company without a
 * tenant has nothing to push.
 */
export async function pushParticipantChange(
  deps: ProvisioningDependencies,
  companyId: string,
  peppolId: string | null,
): Promise<void> {
  const tenant = await deps.store.providerTenants.findById(companyId).lean();
  if (!tenant || tenant.participant_id === peppolId) return;
  try {
    await deps.provider.updateParticipant(tenant.tenant_id, peppolId);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.logger.warn({ err, companyId }, 'the live provider refused a participant id change');
    throw new RuleError(
      'provider_update_failed',
      'The live provider did not take the new peppol_id, so nothing was changed. Try again later; if it persists, contact support.',
      {
        param: 'peppol_id',
      },
    );
  }
  await deps.store.providerTenants.updateOne(
    { _id: companyId },
    { $set: { participant_id: peppolId, updated_at: new Date() } },
  );
}
