import { newId } from '../domain/ids';
import type { Store } from '../store';
import { recordAudit, type Actor } from './audit';

export interface CompanyFields {
  name: string;
  country: string;
  company_registration_id?: string | null | undefined;
  tax_id?: string | null | undefined;
  email?: string | null | undefined;
  iban?: string | null | undefined;
  address?: { street?: string | undefined; city?: string | undefined; postal_code?: string | undefined } | null | undefined;
  peppol_id?: string | null | undefined;
}

type CompanyRow = CompanyFields & { _id: string; workspace_id: string; is_live: boolean; created_at: Date; updated_at: Date };

export function companyView(company: CompanyRow) {
  return {
    id: company._id,
    name: company.name,
    workspace_id: company.workspace_id,
    is_live: company.is_live,
    company_registration_id: company.company_registration_id ?? null,
    tax_id: company.tax_id ?? null,
    email: company.email ?? null,
    country: company.country,
    address: company.address
      ? { street: company.address.street ?? null, city: company.address.city ?? null, postal_code: company.address.postal_code ?? null }
      : null,
    iban: company.iban ?? null,
    peppol_id: company.peppol_id ?? null,
    created_at: company.created_at.toISOString(),
    updated_at: company.updated_at.toISOString(),
  };
}

export function companySummary(company: CompanyRow) {
  const { id, name, tax_id, country, is_live, workspace_id, created_at } = companyView(company);
  return { id, name, tax_id, country, is_live, workspace_id, created_at };
}

export async function createCompany(store: Store, actor: Actor, workspaceId: string, fields: CompanyFields) {
  const now = new Date();
  const company = await store.companies.create({ _id: newId('company'), workspace_id: workspaceId, ...fields, created_at: now, updated_at: now });
  await recordAudit(store, actor, {
    action: 'company.created',
    workspaceId,
    target: { type: 'company', id: company._id },
    details: { fields: Object.keys(fields).sort() },
  });
  return company.toObject() as CompanyRow;
}

export async function listCompanies(store: Store, workspaceId: string, onlyCompanyId: string | null) {
  const rows = await store.companies
    .find({ workspace_id: workspaceId, ...(onlyCompanyId && { _id: onlyCompanyId }) })
    .sort({ created_at: -1, _id: -1 })
    .lean();
  return rows as CompanyRow[];
}

export async function findCompany(store: Store, companyId: string) {
  return (await store.companies.findById(companyId).lean()) as CompanyRow | null;
}

/** Applies the sent fields only; the audit event lists which ones actually changed. */
export async function updateCompany(store: Store, actor: Actor, current: CompanyRow, changes: Partial<CompanyFields>) {
  const changed = Object.keys(changes).filter(
    (field) => JSON.stringify(changes[field as keyof CompanyFields] ?? null) !== JSON.stringify(current[field as keyof CompanyFields] ?? null),
  );
  const updated = await store.companies
    .findOneAndUpdate({ _id: current._id }, { $set: { ...changes, updated_at: new Date() } }, { new: true })
    .lean();
  await recordAudit(store, actor, {
    action: 'company.updated',
    workspaceId: current.workspace_id,
    target: { type: 'company', id: current._id },
    details: { fields: changed.sort() },
  });
  return updated as CompanyRow;
}
