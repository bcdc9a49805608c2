import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

import packageJson from '../../package.json';

extendZodWithOpenApi(z);

export { z };

/** Shared component: the body of every non-2xx response. */
export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      type: z.string().openapi({ example: 'validation_error' }),
      code: z.string().openapi({ example: 'invalid_field' }),
      message: z.string().openapi({ description: 'What went wrong and how to fix it, for a person.' }),
      retry: z.object({
        retryable: z.boolean().openapi({ description: 'Whether the same request may succeed later.' }),
      }),
      param: z.string().optional().openapi({ description: 'The request field at fault, as a JSON path.' }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi('ErrorEnvelope');

export const BEARER_AUTH = 'bearerAuth';
export const SESSION_AUTH = 'sessionCookie';

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER_AUTH, {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key: `ps_test_…` on the sandbox host, `ps_live_…` on the live host.',
  });
  registry.registerComponent('securitySchemes', SESSION_AUTH, {
    type: 'apiKey',
    in: 'cookie',
    name: 'einvoice_session',
    description:
      'The web app’s session (POST /v1/sessions); every change also sends the `einvoice_csrf` cookie’s value as `X-CSRF-Token`.',
  });
  registry.register('ErrorEnvelope', errorEnvelopeSchema);
  return registry;
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** Generated once from the registered routes; only `servers` differs per request. */
export function openApiDocumentFactory(registry: OpenAPIRegistry): (servers: string[]) => OpenApiDocument {
  let document: OpenApiDocument | undefined;
  return (servers) => {
    document ??= new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'E-invoice delivery API',
        version: packageJson.version,
        description:
          'Sends Peppol BIS Billing 3.0 invoices and credit notes on behalf of companies. ' +
          'The sandbox host delivers by email; the live host delivers on the Peppol network. ' +
          'Every non-2xx response carries the ErrorEnvelope body.',
      },
      security: [{ [BEARER_AUTH]: [] }, { [SESSION_AUTH]: [] }],
    });
    return { ...document, servers: [...new Set(servers)].map((url) => ({ url })) };
  };
}
