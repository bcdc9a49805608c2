import { newSortableId } from '../domain/ids';
import type { Store } from '../store';
import type { CompanyRow } from '../store/companies';
import { recordAudit, type Actor } from './audit';

export interface CompanyFields {
  name: string;
  country: string;
  company_registration_id?: string | null | undefined;
  tax_id?: string | null | undefined;
  email?: string | null | undefined;
  iban?: string | null | undefined;
  address?:
    { street?: string | undefined; city?: string | undefined; postal_code?: string | undefined } | null | undefined;
  peppol_id?: string | null | undefined;
  auto_acknowledge?: boolean | undefined;
  receive_cii?: boolean | undefined;
  directory?: boolean | undefined;
}

export type Company = CompanyRow & { _id: string };

export async function createCompany(
  store: Store,
  actor: Actor,
  workspaceId: string,
  fields: CompanyFields,
): Promise<Company> {
  const now = new Date();
  const company = await store.companies.create({
    _id: newSortableId('company', now.getTime()),
    workspace_id: workspaceId,
    ...fields,
    created_at: now,
    updated_at: now,
  });
  await recordAudit(store, actor, {
    action: 'company.created',
    workspaceId,
    target: { type: 'company', id: company._id },
    details: { fields: Object.keys(fields).sort() },
  });
  return company.toObject();
}

/** The workspace's companies, newest first; a key limited to one company sees only that one. */
export async function listCompanies(
  store: Store,
  workspaceId: string,
  onlyCompanyId: string | null,
): Promise<Company[]> {
  if (onlyCompanyId) {
    const company = await findCompany(store, onlyCompanyId);
    return company && company.workspace_id === workspaceId ? [company] : [];
  }
  const rows = await store.companies.find({ workspace_id: workspaceId }).sort({ _id: -1 }).lean();
  return rows.filter((company) => !company.deleted_at);
}

/** A company that is not deleted. */
export async function findCompany(store: Store, companyId: string): Promise<Company | null> {
  const company = await store.companies.findById(companyId).lean();
  return company && !company.deleted_at ? company : null;
}

/**
 * Applies the sent fields only, to a company that is not deleted (one
 * conditional update: a change racing a deletion either lands before it or
 * not at all). Null when the company is gone. The audit event lists the
 * fields that actually changed.
 */
export async function updateCompany(
  store: Store,
  actor: Actor,
  current: Company,
  changes: Partial<CompanyFields>,
): Promise<Company | null> {
  const updated = await store.companies
    .findOneAndUpdate(
      { _id: current._id, deleted_at: null },
      { $set: { ...changes, updated_at: new Date() } },
      { returnDocument: 'after' },
    )
    .lean();
  if (!updated) return null;
  const changed = (Object.keys(changes) as (keyof CompanyFields)[]).filter(
    (field) => JSON.stringify(changes[field] ?? null) !== JSON.stringify(current[field] ?? null),
  );
  await recordAudit(store, actor, {
    action: 'company.updated',
    workspaceId: current.workspace_id,
    target: { type: 'company', id: current._id },
    details: { fields: changed.sort() },
  });
  return updated;
}

/** Marks the company deleted (its documents stay for the record); false when it was gone already. */
export async function deleteCompany(store: Store, actor: Actor, company: Company): Promise<boolean> {
  const { modifiedCount } = await store.companies.updateOne(
    { _id: company._id, deleted_at: null },
    { $set: { deleted_at: new Date() } },
  );
  if (modifiedCount === 0) return false;
  await recordAudit(store, actor, {
    action: 'company.deleted',
    workspaceId: company.workspace_id,
    target: { type: 'company', id: company._id },
  });
  return true;
}
