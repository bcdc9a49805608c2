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

/** The company and the caller's role, when the caller is a member of its workspace and the key is not limited to another company. */
async function visibleCompany(store: Store, auth: AuthContext, companyId: string) {
  const company = await findCompany(store, companyId);
  if (!company || (auth.companyId !== null && auth.companyId !== companyId)) return null;
  const membership = await findMembership(store, company.workspace_id, auth.accountId);
  return membership ? { company, role: membership.role } : null;
}

/** Company endpoints answer 404 for a company the caller cannot see. */
export async function requireCompany(store: Store, auth: AuthContext, companyId: string, param = 'id') {
  const visible = await visibleCompany(store, auth, companyId);
  if (!visible) throw new ApiError('company_not_found', `No company ${companyId} is visible to this API key.`, { param });
  return visible;
}

/** Document endpoints answer 403 (as the spec says) when the caller is not a member of the company's workspace. */
export async function requireDocumentCompany(store: Store, auth: AuthContext, companyId: string) {
  const visible = await visibleCompany(store, auth, companyId);
  if (!visible) {
    throw new ApiError('not_company_member', `This API key's account is not a member of the workspace of company ${companyId}.`, { param: 'company_id' });
  }
  return visible.company;
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
