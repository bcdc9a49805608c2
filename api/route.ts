import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z, ZodObject, ZodType } from 'zod';

import type { AuthContext } from './authentication';
import { statusOf, type ErrorCode } from './errors';
import { BEARER_AUTH, errorEnvelopeSchema } from './openapi';
import { parseInput, type InputOptions } from './validation';

/**
 * One declaration per endpoint drives three things: the Express route with
 * its authentication and input parsing, the OpenAPI operation, and the
 * handler's types. Nothing about an endpoint is written twice.
 */

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface HandlerInput<B extends ZodType, Q extends ZodType, P extends ZodType> {
  body: z.output<B>;
  query: z.output<Q>;
  params: z.output<P>;
  /** The authenticated caller; only public routes have none, and they must not read it. */
  auth: AuthContext;
  req: Request;
  res: Response;
}

export interface RouteSpec<B extends ZodType, Q extends ZodType, P extends ZodType> {
  method: Method;
  /** OpenAPI form: `/v1/workspaces/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Public endpoints need no API key and are not counted by the per-key rate limit. */
  public?: boolean;
  body?: B;
  /** Documented as the request body but handed to the handler unparsed (it reports problems its own way). */
  unparsedBody?: ZodType;
  query?: Q;
  params?: P;
  input?: InputOptions;
  responses: Record<number, ResponseSpec>;
  /** Error codes this endpoint can answer with, documented with the shared envelope. */
  errors?: ErrorCode[];
  /** Middleware run before input parsing (e.g. the per-IP signup limit). */
  before?: RequestHandler[];
  handler: (input: HandlerInput<B, Q, P>) => Promise<Reply | void> | Reply | void;
}

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Codes every authenticated endpoint can answer with. */
const AUTH_ERRORS: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'wrong_environment', 'disabled_account', 'rate_limit_exceeded'];

const RATE_LIMIT_HEADERS: ResponseSpec['headers'] = {
  'RateLimit-Limit': { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'Same as RateLimit-Limit (older form)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Same as RateLimit-Remaining (older form)', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
};

function documentedResponses(spec: RouteSpec<ZodType, ZodType, ZodType>): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const headers = { ...(spec.public ? {} : RATE_LIMIT_HEADERS), ...response.headers };
    responses[status] = {
      description: response.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(response.schema && { content: { [response.contentType ?? 'application/json']: { schema: response.schema } } }),
    };
  }
  const errorsByStatus = new Map<number, ErrorCode[]>();
  for (const code of [...(spec.errors ?? []), ...(spec.public ? [] : AUTH_ERRORS)]) {
    const status = statusOf(code);
    errorsByStatus.set(status, [...new Set([...(errorsByStatus.get(status) ?? []), code])]);
  }
  for (const [status, codes] of errorsByStatus) {
    responses[String(status)] ??= {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: errorEnvelopeSchema } },
    };
  }
  return responses;
}

export interface RouteTable {
  add<B extends ZodType = ZodType<unknown>, Q extends ZodType = ZodType<undefined>, P extends ZodType = ZodType<undefined>>(
    spec: RouteSpec<B, Q, P>,
  ): void;
}

/** Binds routes to a router, the OpenAPI registry and the authentication chain. */
export function routeTable(router: Router, registry: OpenAPIRegistry, authenticate: RequestHandler): RouteTable {
  return {
    add(spec) {
      const generic = spec as unknown as RouteSpec<ZodType, ZodType, ZodType>;
      registry.registerPath({
        method: spec.method,
        path: spec.path,
        operationId: spec.operationId,
        summary: spec.summary,
        ...(spec.description && { description: spec.description }),
        tags: spec.tags,
        security: spec.public ? [] : [{ [BEARER_AUTH]: [] }],
        request: {
          ...(spec.params && { params: spec.params as unknown as ZodObject }),
          ...(spec.query && { query: spec.query as unknown as ZodObject }),
          ...((spec.body ?? spec.unparsedBody) && {
            body: { required: true, content: { 'application/json': { schema: (spec.body ?? spec.unparsedBody)! } } },
          }),
        },
        responses: documentedResponses(generic),
      });

      const handle: RequestHandler = async (req, res) => {
        const input = {
          body: spec.body ? parseInput(spec.body, req.body, 'body', spec.input) : (req.body as unknown),
          query: spec.query ? parseInput(spec.query, req.query, 'query', spec.input) : undefined,
          params: spec.params ? parseInput(spec.params, req.params, 'path', spec.input) : undefined,
          auth: req.auth!,
          req,
          res,
        };
        const reply = await generic.handler(input);
        if (!reply) return;
        for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
        res.status(reply.status).json(reply.body);
      };
      router[spec.method](toExpressPath(spec.path), ...(spec.public ? [] : [authenticate]), ...(spec.before ?? []), handle);
    },
  };
}
