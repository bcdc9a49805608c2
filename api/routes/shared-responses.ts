import { z } from '../openapi';

/** Response schemas used by more than one route file. */

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
