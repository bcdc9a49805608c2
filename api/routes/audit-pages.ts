import { idPattern } from '../../domain/ids';
import { listAudit } from '../../services/audit';
import type { Store } from '../../store';
import { decodeCursor, encodeCursor } from '../cursor';
import { z } from '../openapi';

/** The audit list shared by the workspace and account routes: its schema and its paging. */

export const auditEventSchema = z
  .object({
    id: z.string().openapi({ example: 'aud_0mhx3k2a1bQ8sV7yT2nR4kLp' }),
    action: z.string().openapi({ example: 'member.added' }),
    workspace_id: z.string(),
    actor: z.object({ account_id: z.string(), key_prefix: z.string().nullable() }),
    target: z.object({ type: z.string(), id: z.string() }),
    details: z.record(z.string(), z.unknown()),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('AuditEvent');

export const auditPageSchema = z
  .object({ data: z.array(auditEventSchema), has_more: z.boolean(), next_cursor: z.string().nullable() })
  .openapi('AuditEventList');

/** One page of the audit events of these workspaces, with opaque cursors in and out. */
export async function auditPage(store: Store, workspaceIds: string[], query: { limit: number; cursor?: string | undefined }) {
  const page = await listAudit(store, workspaceIds, query.limit, decodeCursor(query.cursor, idPattern('auditEvent')));
  return { ...page, next_cursor: page.next_cursor && encodeCursor(page.next_cursor) };
}
