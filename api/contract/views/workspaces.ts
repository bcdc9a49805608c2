import { unitsToEuros } from '../../../domain/credits';
import type { WorkspaceWithRole } from '../../../services/workspaces';
import type { MemberView } from '../../../services/workspaces';
import { z } from '../openapi';
import { role } from '../schemas';

export const workspaceSchema = z
  .object({
    id: z.string().openapi({ example: 'wsp_8bYt2LqX0mN4vR6sD1kP9wZc' }),
    name: z.string(),
    role: role.openapi({ description: "The caller's role" }),
    mode: z
      .enum(['sandbox', 'live'])
      .openapi({ description: '`sandbox` until the workspace is verified (KYC approved), then `live`' }),
    credit_balance: z.string().openapi({
      description:
        'Prepaid credits in EUR, as a decimal string (2 decimals, up to 4 when a price has more). Each live document reserves its price when accepted; a failed one gives it back.',
      example: '12.30',
    }),
    document_price: z
      .string()
      .openapi({ description: 'What one live document costs this workspace, in EUR', example: '0.10' }),
    sandbox_email_pdf: z.enum(['pdf', 'facturx']).openapi({
      description:
        "What a sandbox document's email carries beside its UBL: `pdf`, the rendering a person reads (default), or `facturx`, a Factur-X (EN 16931 profile): " +
        'that rendering as a PDF/A-3 with the invoice as CII embedded as `factur-x.xml`, as `GET /v1/documents/{id}/facturx` gives it',
    }),
    suspended: z.boolean().openapi({
      description:
        'A suspended workspace cannot send on the live network (403 `workspace_suspended`); sandbox works as before',
    }),
    suspension_reason: z.string().nullable().openapi({ description: 'Why the operator suspended it' }),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Workspace');

export function workspaceView(
  { workspace, role: callerRole }: WorkspaceWithRole,
  defaultPriceUnits: number,
): z.infer<typeof workspaceSchema> {
  return {
    id: workspace._id,
    name: workspace.name,
    role: callerRole,
    mode: workspace.mode,
    credit_balance: unitsToEuros(workspace.credit_balance_units),
    document_price: unitsToEuros(workspace.document_price_units ?? defaultPriceUnits),
    sandbox_email_pdf: workspace.sandbox_email_pdf,
    suspended: workspace.suspended,
    suspension_reason: workspace.suspension_reason ?? null,
    created_at: workspace.created_at.toISOString(),
  };
}

export const memberSchema = z
  .object({
    account_id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role,
    joined_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('WorkspaceMember');

export const memberView = (member: MemberView): z.infer<typeof memberSchema> => ({
  ...member,
  joined_at: member.joined_at.toISOString(),
});
