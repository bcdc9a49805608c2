import type { UsageReport } from '../../../services/usage';
import { z } from '../openapi';

const keySummarySchema = z
  .object({
    prefix: z.string().openapi({ example: 'ps_test_AbC1234...' }),
    label: z.string(),
    sandbox: z.boolean(),
    workspace_id: z.string(),
    company_id: z.string().nullable(),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ApiKeySummary');

const usageReceivedSchema = z.number().int().openapi({
  description: "Documents received for the workspace's companies, counted for the workspace's first owner",
});

export const accountSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    status: z.enum(['active', 'disabled']),
    created_at: z.string().openapi({ format: 'date-time' }),
    api_keys: z.array(keySummarySchema).openapi({ description: 'Active keys, by prefix only' }),
    usage: z
      .object({
        period_days: z.number().int(),
        api_calls: z.number().int(),
        documents_sent: z.number().int(),
        documents_received: usageReceivedSchema,
      })
      .openapi({ description: 'Totals of the last 30 days' }),
  })
  .openapi('Account');

export const createdKeySchema = z
  .object({
    api_key: z.string().openapi({ description: 'The full key, shown once' }),
    prefix: z.string(),
    sandbox: z.boolean(),
    company_id: z.string().nullable(),
    label: z.string(),
    workspace_id: z.string(),
  })
  .openapi('CreatedApiKey');

export const usageSchema = z
  .object({
    days: z.number().int(),
    from: z.string().openapi({ format: 'date' }),
    to: z.string().openapi({ format: 'date' }),
    totals: z.object({
      api_calls: z.number().int(),
      documents_sent: z.number().int(),
      documents_received: usageReceivedSchema,
    }),
    data: z.array(
      z.object({
        date: z.string().openapi({ format: 'date' }),
        api_calls: z.number().int(),
        documents_sent: z.number().int(),
        documents_received: usageReceivedSchema,
      }),
    ),
  })
  .openapi('Usage');

interface AccountRow {
  _id: string;
  email: string;
  name?: string | null;
  status: 'active' | 'disabled';
  created_at: Date;
}
interface KeyRow {
  prefix: string;
  label?: string | null;
  sandbox: boolean;
  workspace_id: string;
  company_id?: string | null;
  created_at: Date;
}

export function accountView(account: AccountRow, keys: KeyRow[], usage: UsageReport): z.infer<typeof accountSchema> {
  return {
    id: account._id,
    email: account.email,
    name: account.name ?? null,
    status: account.status,
    created_at: account.created_at.toISOString(),
    api_keys: keys.map((key) => ({
      prefix: key.prefix,
      label: key.label ?? '',
      sandbox: key.sandbox,
      workspace_id: key.workspace_id,
      company_id: key.company_id ?? null,
      created_at: key.created_at.toISOString(),
    })),
    usage: { period_days: usage.days, ...usage.totals },
  };
}
