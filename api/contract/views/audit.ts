import type { AuditEventRow } from '../../../store/audit-events';
import { z } from '../openapi';
import { pageSchema } from '../../http/paging';

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

export function auditEventView(row: AuditEventRow & { _id: string }): z.infer<typeof auditEventSchema> {
  return {
    id: row._id,
    action: row.action,
    workspace_id: row.workspace_id,
    actor: { account_id: row.actor_account_id, key_prefix: row.actor_key_prefix ?? null },
    target: { type: row.target_type, id: row.target_id },
    details: (row.details ?? {}) as Record<string, unknown>,
    created_at: row.created_at.toISOString(),
  };
}

export const auditPageSchema = pageSchema(auditEventSchema, 'AuditEventList');
