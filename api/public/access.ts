import { idPattern } from '../../domain/ids';
import type { Role } from '../../domain/roles';
import { findCompany, type Company } from '../../services/companies';
import { findDocument } from '../../services/documents/queries';
import { insufficientRole, workspaceNotFound } from '../../services/errors';
import { membershipOf, type WorkspaceWithRole } from '../../services/workspaces';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import type { AuthContext } from './authentication';
import { ApiError } from '../http/errors';

/**
 * Who may see and change what. A workspace, company or document the caller
 * cannot see answers exactly as one that does not exist; an id that cannot
 * name anything is not even looked up. A key limited to one company sees
 * that company and its documents only.
 */

export async function requireMembership(
  store: Store,
  auth: AuthContext,
  workspaceId: string,
): Promise<WorkspaceWithRole> {
  const membership = idPattern('workspace').test(workspaceId)
    ? await membershipOf(store, workspaceId, auth.accountId)
    : null;
  if (!membership) throw workspaceNotFound(workspaceId);
  return membership;
}

export function requireRole(role: Role, allowed: readonly Role[], action: string): void {
  if (!allowed.includes(role)) throw insufficientRole(role, allowed, action);
}

/** The company, when the caller is a member of its workspace and the key is not limited to another company. */
async function visibleCompany(store: Store, auth: AuthContext, companyId: string): Promise<Company | null> {
  if (!idPattern('company').test(companyId) || (auth.companyId !== null && auth.companyId !== companyId)) return null;
  const company = await findCompany(store, companyId);
  if (!company) return null;
  // A key that is not revoked is a member of its home workspace: removing a member (or deleting the
  // workspace) revokes the keys at home there before the membership goes.
  if (company.workspace_id === auth.workspaceId) return company;
  return (await membershipOf(store, company.workspace_id, auth.accountId)) ? company : null;
}

/** The company and the caller's role in its workspace. */
async function companyWithRole(
  store: Store,
  auth: AuthContext,
  companyId: string,
): Promise<{ company: Company; role: Role } | null> {
  const company = await visibleCompany(store, auth, companyId);
  const membership = company && (await membershipOf(store, company.workspace_id, auth.accountId));
  return company && membership ? { company, role: membership.role } : null;
}

/** A company the caller may not see, is not where it was asked for, or has just gone: 404, the same for all. */
export const companyNotFound = (companyId: string, param = 'id') =>
  new ApiError('company_not_found', `No company ${companyId} is visible to this API key here.`, { param });

/** Company endpoints answer 404 for a company the caller cannot see. */
export async function requireCompany(store: Store, auth: AuthContext, companyId: string, param = 'id') {
  const visible = await companyWithRole(store, auth, companyId);
  if (!visible) throw companyNotFound(companyId, param);
  return visible;
}

/** Document endpoints answer 403 (as the spec says) when the caller is not a member of the company's workspace. */
export async function requireDocumentCompany(store: Store, auth: AuthContext, companyId: string): Promise<Company> {
  const company = await visibleCompany(store, auth, companyId);
  if (!company) {
    throw new ApiError(
      'not_company_member',
      `This API key's account is not a member of the workspace of company ${companyId}.`,
      { param: 'company_id' },
    );
  }
  return company;
}

/** A document of this key's environment, of a company the caller may see; anything else is 404. */
export async function requireDocument(
  store: Store,
  auth: AuthContext,
  documentId: string,
  companyId?: string,
): Promise<DocumentRow> {
  const document = idPattern('document').test(documentId) ? await findDocument(store, documentId) : null;
  const visible =
    document &&
    document.environment === auth.environment &&
    (companyId === undefined || document.company_id === companyId) &&
    (await visibleCompany(store, auth, document.company_id));
  if (!document || !visible)
    throw new ApiError('document_not_found', `No document ${documentId} is visible to this API key.`, { param: 'id' });
  return document;
}

/**
 * The document of a per-document route whose `company_id` is optional: named, it is checked as
 * GET /v1/documents/{id} checks it (403 `not_company_member` when the key cannot see that company, 404 when
 * the document is not that company's); not named, the document alone is looked up.
 */
export async function requireDocumentOf(
  store: Store,
  auth: AuthContext,
  documentId: string,
  companyId: string | undefined,
): Promise<DocumentRow> {
  if (companyId !== undefined) await requireDocumentCompany(store, auth, companyId);
  return requireDocument(store, auth, documentId, companyId);
}

/** The one place a sent document is refused what only received ones get (acknowledging, answering). */
export function requireReceivedDocument(document: DocumentRow, what: string): DocumentRow {
  if (document.direction !== 'received')
    throw new ApiError(
      'not_received_document',
      `Document ${document._id} was sent, not received; only received documents are ${what}.`,
      { param: 'id' },
    );
  return document;
}
