import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

import packageJson from '../../package.json';
import { ApiError } from '../errors';
import { openApiDocumentFactory, z } from '../openapi';
import type { RouteTable } from '../route';

/** Probes of the services a request depends on; each answers true when reachable. */
export interface HealthProbes {
  db: () => Promise<boolean>;
  temporal: () => Promise<boolean>;
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

export function plumbingRoutes(routes: RouteTable, registry: OpenAPIRegistry, probes: HealthProbes): void {
  const openApiDocument = openApiDocumentFactory(registry);

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

  routes.add({
    method: 'get',
    path: '/v1/health',
    operationId: 'getHealth',
    summary: 'Service health',
    description:
      'Probes the database and the workflow engine. 503 with `status: degraded` (and the error envelope) when either fails.',
    tags: ['Public'],
    public: true,
    responses: {
      200: { description: 'Every dependency answers', schema: healthSchema },
      503: { description: 'A dependency failed; the body carries the health fields and the error envelope', schema: healthSchema },
    },
    handler: async ({ req }) => {
      const [db, temporal] = await Promise.all([probes.db(), probes.temporal()]);
      const healthy = db && temporal;
      const body = {
        status: healthy ? 'ok' : 'degraded',
        version: packageJson.version,
        environment: req.environment,
        checks: { db: db ? 'ok' : 'error', temporal: temporal ? 'ok' : 'error' },
      };
      if (healthy) return { status: 200, body };
      const failing = Object.entries(body.checks).filter(([, state]) => state === 'error').map(([name]) => name);
      const degraded = new ApiError('service_degraded', `Not reachable: ${failing.join(', ')}.`).toEnvelope();
      return { status: 503, body: { ...body, ...degraded } };
    },
  });

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
