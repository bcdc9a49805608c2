import { newSortableId } from '../domain/ids';
import type { Store } from '../store';

/**
 * The audit trail is append-only: this module only inserts and reads. Every
 * event names who acted (account and key prefix), in which workspace, on what.
 */

export type AuditAction =
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
  | 'company.updated';

export interface Actor {
  accountId: string;
  keyPrefix: string | null;
}

export interface AuditEntry {
  action: AuditAction;
  workspaceId: string;
  target: { type: 'api_key' | 'account' | 'workspace' | 'company'; id: string };
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

export interface AuditPage {
  data: AuditEventView[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface AuditEventView {
  id: string;
  action: string;
  workspace_id: string;
  actor: { account_id: string; key_prefix: string | null };
  target: { type: string; id: string };
  details: Record<string, unknown>;
  created_at: string;
}

/**
 * Newest first. The cursor is the last id seen; ids sort by creation and
 * never tie, so a page never repeats or skips an event that existed before it,
 * whatever is inserted meanwhile (new events land before page one).
 */
export async function listAudit(store: Store, workspaceIds: string[], limit: number, after: string | undefined): Promise<AuditPage> {
  const filter = { workspace_id: { $in: workspaceIds }, ...(after && { _id: { $lt: after } }) };
  const rows = await store.auditEvents.find(filter).sort({ _id: -1 }).limit(limit + 1).lean();
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    data: page.map((row) => ({
      id: row._id,
      action: row.action,
      workspace_id: row.workspace_id,
      actor: { account_id: row.actor_account_id, key_prefix: row.actor_key_prefix ?? null },
      target: { type: row.target_type, id: row.target_id },
      details: (row.details ?? {}) as Record<string, unknown>,
      created_at: row.created_at.toISOString(),
    })),
    has_more: hasMore,
    next_cursor: hasMore ? page[page.length - 1]!._id : null,
  };
}
