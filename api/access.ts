import type { Role } from '../domain/roles';
import { findCompany } from '../services/companies';
import { findMembership } from '../services/workspaces';
import type { Store } from '../store';
import type { AuthContext } from './authentication';
import { ApiError } from './errors';

/**
 * Who may see and change what. A workspace or company the caller cannot see
 * answers 404, never a hint that it exists.
 */

export async function requireMembership(store: Store, auth: AuthContext, workspaceId: string) {
  const membership = await findMembership(store, workspaceId, auth.accountId);
  if (!membership) throw new ApiError('workspace_not_found', `No workspace ${workspaceId} is visible to this account.`, { param: 'id' });
  return membership;
}

export function requireRole(role: Role, allowed: readonly Role[], action: string): void {
  if (!allowed.includes(role)) {
    throw new ApiError('insufficient_role', `Only ${allowed.join(' or ')} may ${action}; your role in this workspace is ${role}.`);
  }
}

/** The company, when the caller is a member of its workspace and the key is not limited to another company. */
export async function requireCompany(store: Store, auth: AuthContext, companyId: string, param = 'id') {
  const company = await findCompany(store, companyId);
  const membership = company && (auth.companyId === null || auth.companyId === companyId) ? await findMembership(store, company.workspace_id, auth.accountId) : null;
  if (!company || !membership) throw new ApiError('company_not_found', `No company ${companyId} is visible to this API key.`, { param });
  return { company, role: membership.role };
}

/** Document endpoints answer 403 (as the spec says) when the caller is not a member of the company's workspace. */
export async function requireDocumentCompany(store: Store, auth: AuthContext, companyId: string) {
  const company = await findCompany(store, companyId);
  const member = company && (auth.companyId === null || auth.companyId === companyId) && (await findMembership(store, company.workspace_id, auth.accountId));
  if (!company || !member) {
    throw new ApiError('not_company_member', `This API key's account is not a member of the workspace of company ${companyId}.`, { param: 'company_id' });
  }
  return company;
}

/** A document of a company the caller may see; anything else is 404. */
export async function requireDocument(store: Store, auth: AuthContext, documentId: string, companyId?: string) {
  const document = await store.documents.findById(documentId).lean();
  const visible =
    document &&
    (companyId === undefined || document.company_id === companyId) &&
    (auth.companyId === null || auth.companyId === document.company_id) &&
    (await findMembership(store, document.workspace_id, auth.accountId));
  if (!document || !visible) throw new ApiError('document_not_found', `No document ${documentId} is visible to this API key.`, { param: 'id' });
  return document;
}
