import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, Response, Router } from 'express';
import type { ZodType } from 'zod';

import { statusOf, type ErrorCode } from './errors';
import { BEARER_AUTH, errorEnvelopeSchema } from './openapi';

/**
 * One declaration per endpoint drives three things: the Express route, the
 * OpenAPI operation and the handler's types. Nothing about an endpoint is
 * written twice.
 */

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteSpec {
  method: Method;
  /** OpenAPI form: `/v1/workspaces/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Public endpoints need no API key. */
  public?: boolean;
  responses: Record<number, ResponseSpec>;
  /** Error codes this endpoint can answer with, documented with the shared envelope. */
  errors?: ErrorCode[];
  handler: (req: Request, res: Response) => Promise<Reply | void> | Reply | void;
}

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function documentedResponses(spec: RouteSpec): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema && { content: { [response.contentType ?? 'application/json']: { schema: response.schema } } }),
    };
  }
  const errorsByStatus = new Map<number, ErrorCode[]>();
  for (const code of spec.errors ?? []) {
    const status = statusOf(code);
    errorsByStatus.set(status, [...(errorsByStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of errorsByStatus) {
    responses[String(status)] ??= {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: errorEnvelopeSchema } },
    };
  }
  return responses;
}

export function addRoute(router: Router, registry: OpenAPIRegistry, spec: RouteSpec): void {
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description && { description: spec.description }),
    tags: spec.tags,
    ...(spec.public && { security: [] }),
    ...(!spec.public && { security: [{ [BEARER_AUTH]: [] }] }),
    responses: documentedResponses(spec),
  });

  router[spec.method](toExpressPath(spec.path), async (req, res) => {
    const reply = await spec.handler(req, res);
    if (!reply) return;
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.status(reply.status).json(reply.body);
  });
}
