import { signup } from '../../../services/accounts';
import type { RateLimiter } from '../../../services/rate-limits';
import type { Store } from '../../../store';
import { z } from '../../contract/openapi';
import { perIpLimit } from '../rate-limiting';
import type { RouteTable } from '../route-table';
import { emailAddress, text } from '../../contract/schemas';

const signupBody = z
  .object({ email: emailAddress, name: text(200).optional().openapi({ example: 'Ada Lovelace' }) })
  .strict()
  .openapi('SignupRequest');

const signupResponse = z
  .object({
    id: z.string().openapi({ example: 'acc_4Q2n7rT0vWcXyZ1aB3dE5fGh' }),
    email: z.string(),
    name: z.string().nullable(),
    status: z.literal('active'),
    api_key: z.string().openapi({ description: 'Sandbox key, shown once; store it now.' }),
    prefix: z.string().openapi({ description: 'Identifies the key in listings and revocation' }),
    workspace_id: z.string().openapi({ description: 'The personal workspace; the account is its owner' }),
  })
  .openapi('SignupResponse');

export function signupRoutes(routes: RouteTable, store: Store, limiter: RateLimiter, signupsPerHour: number): void {
  routes.add({
    method: 'post',
    path: '/v1/signup',
    operationId: 'signup',
    summary: 'Create an account, its personal workspace and a sandbox API key',
    description: `No key needed. One account per email (case-insensitive). At most ${signupsPerHour} signups per IP address per hour.`,
    tags: ['Public'],
    public: true,
    before: [perIpLimit(limiter, 'signup', signupsPerHour, 3_600_000, 'signups per IP address per hour')],
    body: signupBody,
    input: { missingCode: 'invalid_field' },
    responses: { 201: { description: 'Account created; the API key is shown once', schema: signupResponse } },
    errors: ['email_taken', 'rate_limit_exceeded'],
    handler: async ({ body }) => {
      const { account, workspaceId, key } = await signup(store, body);
      return { status: 201, body: { ...account, api_key: key.api_key, prefix: key.prefix, workspace_id: workspaceId } };
    },
  });
}
