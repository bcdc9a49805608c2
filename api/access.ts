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
