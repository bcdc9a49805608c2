import packageJson from '../../../package.json';
import type { RuleSet } from '../../../platform/official-validator';
import { ApiError } from '../../http/errors';
import { z, type OpenApiDocument } from '../../contract/openapi';
import type { RouteTable } from '../route-table';

/** Probes of the services a request depends on; each answers true (or what it runs) when reachable. */
export interface HealthProbes {
  db: () => Promise<boolean>;
  temporal: () => Promise<boolean>;
  /** The official validator's rule set, or undefined when it does not answer. */
  validator: () => Promise<RuleSet | undefined>;
}

const checkStatus = z.enum(['ok', 'error']);

const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    environment: z.enum(['sandbox', 'live']),
    checks: z.object({
      db: checkStatus.openapi({ description: 'A real round trip to the database.' }),
      temporal: checkStatus.openapi({ description: 'The workflow engine answers its health check.' }),
      validator: checkStatus.openapi({
        description: 'The official Peppol validator answers (documents wait for it before sending).',
      }),
    }),
    rule_set: z
      .object({
        id: z.string().openapi({ example: 'eu.peppol.bis3:2026.5' }),
        name: z.string().openapi({ example: 'Peppol BIS Billing 3.0.21' }),
        valid_from: z.string().nullable().openapi({ format: 'date', description: 'When the release became mandatory' }),
      })
      .nullable()
      .openapi({
        description:
          'The official rule set every document is validated against before sending; null while the validator does not answer',
      }),
  })
  .openapi('Health');

const protectedResourceSchema = z
  .object({
    resource: z.url().openapi({ description: 'Origin of the host that served this document.' }),
    bearer_methods_supported: z.array(z.literal('header')),
    resource_documentation: z.url(),
  })
  .openapi('ProtectedResource');

/** `openApiDocument` is read lazily, on the first request, once every route is declared. */
export function plumbingRoutes(
  routes: RouteTable,
  openApiDocument: (servers: string[]) => OpenApiDocument,
  probes: HealthProbes,
): void {
  getProtectedResourceMetadataRoute(routes);
  getHealthRoute(routes, probes);
  getOpenApiRoute(routes, openApiDocument);
}

function getProtectedResourceMetadataRoute(routes: RouteTable): void {
  routes.add({
    method: 'get',
    path: '/.well-known/oauth-protected-resource',
    operationId: 'getProtectedResourceMetadata',
    summary: 'Protected-resource metadata (RFC 9728)',
    description: 'Tells a client that this host takes API keys as bearer tokens in the Authorization header.',
    tags: ['Public'],
    public: true,
    responses: { 200: { description: 'Metadata of this host', schema: protectedResourceSchema } },
    handler: ({ req }) => ({
      status: 200,
      body: {
        resource: req.origin,
        bearer_methods_supported: ['header'],
        resource_documentation: `${req.origin}/v1/openapi.json`,
      },
    }),
  });
}

function getHealthRoute(routes: RouteTable, probes: HealthProbes): void {
  routes.add({
    method: 'get',
    path: '/v1/health',
    operationId: 'getHealth',
    summary: 'Service health',
    description:
      'Probes the database, the workflow engine and the official validator, and names the rule set in force. 503 with `status: degraded` (and the error envelope) when any fails.',
    tags: ['Public'],
    public: true,
    responses: {
      200: { description: 'Every dependency answers', schema: healthSchema },
      503: {
        description: 'A dependency failed; the body carries the health fields and the error envelope',
        schema: healthSchema,
      },
    },
    handler: async ({ req }) => {
      const [db, temporal, ruleSet] = await Promise.all([probes.db(), probes.temporal(), probes.validator()]);
      const healthy = db && temporal && ruleSet !== undefined;
      const body = {
        status: healthy ? 'ok' : 'degraded',
        version: packageJson.version,
        environment: req.environment,
        checks: { db: db ? 'ok' : 'error', temporal: temporal ? 'ok' : 'error', validator: ruleSet ? 'ok' : 'error' },
        rule_set: ruleSet ?? null,
      };
      if (healthy) return { status: 200, body };
      const failing = Object.entries(body.checks)
        .filter(([, state]) => state === 'error')
        .map(([name]) => name);
      const degraded = new ApiError('service_degraded', `Not reachable: ${failing.join(', ')}.`).toEnvelope();
      return { status: 503, body: { ...body, ...degraded } };
    },
  });
}

function getOpenApiRoute(routes: RouteTable, openApiDocument: (servers: string[]) => OpenApiDocument): void {
  routes.add({
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApi',
    summary: 'This description (OpenAPI 3.1)',
    tags: ['Public'],
    public: true,
    responses: { 200: { description: 'The OpenAPI 3.1 document', schema: z.record(z.string(), z.unknown()) } },
    handler: ({ req }) => ({ status: 200, body: openApiDocument([req.origin]) }),
  });
}
