import { newSortableId } from '../domain/ids';
import type { Store } from '../store';
import type { AuditEventRow } from '../store/audit-events';
import { pageOf, type Page } from './paging';

/**
 * The audit trail is append-only: this module only inserts and reads. Every
 * event names who acted (account and key prefix), in which workspace, on what.
 */

type AuditAction =
  | 'api_key.created'
  | 'api_key.revoked'
  | 'member.added'
  | 'member.role_changed'
  | 'member.removed'
  | 'workspace.created'
  | 'workspace.updated'
  | 'workspace.deleted'
  | 'workspace.ownership_transferred'
  | 'company.created'
  | 'company.updated'
  | 'company.deleted'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.secret_rotated'
  | 'webhook.deleted'
  | 'credits.added'
  | 'credits.price_set'
  | 'workspace.suspended'
  | 'workspace.resumed'
  | 'account.disabled'
  | 'account.enabled'
  | 'account.rate_limit_set'
  | 'kyc.document_uploaded'
  | 'kyc.document_deleted'
  | 'kyc.document_read'
  | 'kyc.document_resealed'
  | 'kyc.submitted'
  | 'kyc.approved'
  | 'kyc.rejected'
  | 'company.provisioned'
  | 'company.participant_review_requested'
  | 'company.participant_review_approved'
  | 'company.participant_review_rejected'
  | 'company.participant_registered'
  | 'company.migration_key_supplied'
  | 'company.migration_key_issued'
  | 'company.participant_migrated_in';

export interface Actor {
  accountId: string;
  keyPrefix: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  workspaceId: string;
  target: {
    type: 'api_key' | 'account' | 'workspace' | 'company' | 'webhook' | 'kyc_document' | 'kyc_submission';
    id: string;
  };
  details?: Record<string, unknown>;
}

export async function recordAudit(store: Store, actor: Actor, entry: AuditEntry): Promise<void> {
  const now = Date.now();
  await store.auditEvents.create({
    _id: newSortableId('auditEvent', now),
    action: entry.action,
    workspace_id: entry.workspaceId,
    actor_account_id: actor.accountId,
    actor_key_prefix: actor.keyPrefix,
    target_type: entry.target.type,
    target_id: entry.target.id,
    details: entry.details ?? {},
    created_at: new Date(now),
  });
}

/**
 * Newest first, across the given workspaces. Each workspace's events are
 * read from its own index range and merged, so the cost is a page per
 * workspace, not the whole trail. The cursor is the last id seen; ids sort by
 * creation and never tie, so a page never repeats or skips an event that
 * existed before it, whatever is inserted meanwhile (new events land before
 * page one).
 */
export async function listAudit(
  store: Store,
  workspaceIds: string[],
  limit: number,
  before: string | undefined,
): Promise<Page<AuditEventRow>> {
  const perWorkspace = await Promise.all(
    workspaceIds.map((workspaceId) =>
      store.auditEvents
        .find({ workspace_id: workspaceId, ...(before && { _id: { $lt: before } }) })
        .sort({ _id: -1 })
        .limit(limit + 1)
        .lean(),
    ),
  );
  const merged = perWorkspace.flat().sort((a, b) => (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
  return pageOf(merged.slice(0, limit + 1), limit);
}
