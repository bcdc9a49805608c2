import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { z, ZodObject, ZodType } from 'zod';

import type { AuthContext } from './authentication';
import { keyLimited, statusOf, type ErrorCode } from '../http/errors';
import { jsonBody, rawBody, refuseDeclaredOversize, SMALL_BODY_BYTES } from '../http/json-body';
import { BEARER_AUTH, errorEnvelopeSchema, SESSION_AUTH } from '../contract/openapi';
import { parseInput, type InputOptions } from '../http/validation';

/**
 * One declaration per endpoint drives everything about it: the Express route
 * (a declared body over the route's limit refused first, authentication, the
 * body read with the route's own limit, input parsing),
 * the OpenAPI operation with every status it can answer, and the handler's
 * types. Nothing about an endpoint is written twice.
 */

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;
}

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface HandlerInput<B extends ZodType, Q extends ZodType, P extends ZodType> {
  body: z.output<B>;
  query: z.output<Q>;
  params: z.output<P>;
  /** The authenticated caller; only public routes have none, and they must not read it. */
  auth: AuthContext;
  req: Request;
  res: Response;
  /** Aborted when the client goes away before the answer: work done for it alone can stop. */
  signal: AbortSignal;
}

/** Versioning 4: an operation in its notice period. */
interface Deprecation {
  /** When it was deprecated. */
  since: Date;
  /** After this it may stop working. */
  sunset: Date;
  /** Where the notice is published. */
  notice: string;
}

interface RouteSpec<B extends ZodType, Q extends ZodType, P extends ZodType> {
  method: Method;
  /** OpenAPI form: `/v1/workspaces/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Public endpoints need no API key and are not counted by the per-key rate limit. */
  public?: boolean;
  /**
   * Whether a key limited to one company may call it (the handler then limits
   * what it shows or changes to that company). Other routes answer such a key
   * 403 `key_limited`.
   */
  limitedKeys?: boolean;
  body?: B;
  /** Documented as the request body but handed to the handler unparsed (it reports problems its own way). */
  unparsedBody?: ZodType;
  /**
   * Documented as the JSON request body but handed to the handler as its bytes
   * (a Buffer): the handler reads them on a worker thread, since such bodies
   * can be large (documents).
   */
  jsonBytesBody?: ZodType;
  /**
   * The body is an XML document (application/xml), handed to the handler as its bytes; the schema documents it.
   * Beside `jsonBytesBody` the route takes either, and the handler tells them apart by the Content-Type.
   */
  xmlBody?: ZodType;
  /** Largest body this route reads (default 64 KiB). */
  bodyLimit?: number;
  query?: Q;
  params?: P;
  input?: InputOptions;
  responses: Record<number, ResponseSpec>;
  /** Error codes this endpoint can answer with (besides those of authentication and input parsing). */
  errors?: ErrorCode[];
  /** Middleware run before the body is read (e.g. the per-IP signup limit). */
  before?: RequestHandler[];
  deprecated?: Deprecation;
  handler: (input: HandlerInput<B, Q, P>) => Promise<Reply | void> | Reply | void;
}

const toExpressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const toPattern = (path: string) => new RegExp(`^${path.replace(/\{(\w+)\}/g, '[^/]+')}$`);

/** Codes every authenticated endpoint can answer with. */
const AUTH_ERRORS: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'session_ended',
  'csrf_token_invalid',
  'wrong_environment',
  'disabled_account',
  'rate_limit_exceeded',
];
const BODY_ERRORS: ErrorCode[] = [
  'invalid_json',
  'body_too_large',
  'unsupported_media_type',
  'invalid_field',
  'missing_field',
];
const XML_BODY_ERRORS: ErrorCode[] = ['body_too_large', 'unsupported_media_type'];

const RATE_LIMIT_HEADERS: ResponseSpec['headers'] = {
  'RateLimit-Limit': { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'X-RateLimit-Limit': { description: 'Same as RateLimit-Limit (older form)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Same as RateLimit-Remaining (older form)', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets', schema: { type: 'integer' } },
};

const DEPRECATION_HEADERS: ResponseSpec['headers'] = {
  Deprecation: { description: 'When the operation was deprecated (RFC 9745)', schema: { type: 'string' } },
  Sunset: { description: 'After this date the operation may stop working (RFC 8594)', schema: { type: 'string' } },
  Link: { description: 'The deprecation notice: `<url>; rel="deprecation"`', schema: { type: 'string' } },
};

type AnyRoute = RouteSpec<ZodType, ZodType, ZodType>;

/** Every error code the route can answer with: its own, and those its declaration implies. */
function errorCodesOf(spec: AnyRoute): ErrorCode[] {
  return [
    ...new Set<ErrorCode>([
      ...(spec.errors ?? []),
      // Every route reads or writes the database (keys, rate limits at the least): while it is away, 503 with Retry-After.
      'service_unavailable',
      ...(spec.public ? [] : AUTH_ERRORS),
      ...(spec.public || spec.limitedKeys ? [] : (['key_limited'] as ErrorCode[])),
      ...(spec.body || spec.unparsedBody || spec.jsonBytesBody ? BODY_ERRORS : []),
      ...(spec.xmlBody ? XML_BODY_ERRORS : []),
      ...(spec.query ? (['invalid_field', 'missing_field'] as ErrorCode[]) : []),
      // A path parameter that is not valid percent-encoding (`%ff`) cannot be decoded: 400 invalid_field.
      ...(spec.params ? (['invalid_field'] as ErrorCode[]) : []),
    ]),
  ];
}

function documentedResponses(spec: AnyRoute): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const headers = {
      ...(spec.public ? {} : RATE_LIMIT_HEADERS),
      ...(spec.deprecated ? DEPRECATION_HEADERS : {}),
      ...response.headers,
    };
    responses[status] = {
      description: response.description,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(response.schema && {
        content: { [response.contentType ?? 'application/json']: { schema: response.schema } },
      }),
    };
  }
  const errorsByStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(spec))
    errorsByStatus.set(statusOf(code), [...(errorsByStatus.get(statusOf(code)) ?? []), code]);
  for (const [status, codes] of errorsByStatus) {
    responses[String(status)] ??= {
      description: `Error: ${codes.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: errorEnvelopeSchema } },
    };
  }
  return responses;
}

function deprecationHeaders(deprecation: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(deprecation.since.getTime() / 1000)}`,
    Sunset: deprecation.sunset.toUTCString(),
    Link: `<${deprecation.notice}>; rel="deprecation"`,
  };
}

/**
 * OPTIONS answers the methods declared for the path (Express's own answer
 * would count a template that a concrete path shadows); an unknown path falls
 * through to 404.
 */
export function answerOptions(allowedMethods: (path: string) => string[]): RequestHandler {
  return (req, res, next) => {
    const allowed = req.method === 'OPTIONS' ? allowedMethods(req.path) : [];
    if (allowed.length === 0) return next();
    res.set('Allow', allowed.join(', ')).status(204).end();
  };
}

export type BodyKind = 'xml' | 'json';

/** What a route's body may be: JSON unless it takes XML, both when it declares both. */
function bodyKindsOf(spec: AnyRoute): BodyKind[] {
  if (!spec.xmlBody) return ['json'];
  return spec.jsonBytesBody ? ['json', 'xml'] : ['xml'];
}

export interface RouteTable {
  add<
    B extends ZodType = ZodType<unknown>,
    Q extends ZodType = ZodType<undefined>,
    P extends ZodType = ZodType<undefined>,
  >(
    spec: RouteSpec<B, Q, P>,
  ): void;
  /** Methods declared for a concrete path, for 405 answers and OPTIONS. */
  allowedMethods(path: string): string[];
  /** The bodies the route at this method and path takes (XML, JSON or both), or none when no route is there (then 404 or 405 answer, not 415). */
  bodyKinds(method: string, path: string): BodyKind[] | undefined;
}

/** Binds routes to a router, the OpenAPI registry and the authentication chain. */
export function routeTable(router: Router, registry: OpenAPIRegistry, authenticate: RequestHandler): RouteTable {
  const declared: { path: string; pattern: RegExp; method: string; bodyKinds: BodyKind[] }[] = [];
  /**
   * The routes a request path reaches. A path declared as it is shadows the
   * templates it also matches, as OpenAPI matches concrete paths first:
   * `/v1/documents/batch` is not the document `batch` for any method.
   */
  const concretePaths = new Set<string>();
  const routesAt = (path: string) =>
    declared.filter((route) => (concretePaths.has(path) ? route.path === path : route.pattern.test(path)));
  const skipShadowed: RequestHandler = (req, _res, next) => (concretePaths.has(req.path) ? next('route') : next());

  const refuseLimitedKeys: RequestHandler = (req, _res, next) => {
    if (req.auth?.companyId) {
      throw keyLimited(req.auth.companyId, 'this endpoint needs a key that is not');
    }
    next();
  };

  return {
    allowedMethods(path) {
      return [...new Set(routesAt(path).map((route) => route.method.toUpperCase()))];
    },

    bodyKinds(method, path) {
      return routesAt(path).find((candidate) => candidate.method === method.toLowerCase())?.bodyKinds;
    },

    add(spec) {
      const generic = spec as unknown as AnyRoute;
      declared.push({
        path: spec.path,
        pattern: toPattern(spec.path),
        method: spec.method,
        bodyKinds: bodyKindsOf(generic),
      });
      const templated = spec.path.includes('{');
      if (!templated) concretePaths.add(spec.path);
      registerOperation(registry, generic);
      const access = spec.public ? [] : [authenticate, ...(spec.limitedKeys ? [] : [refuseLimitedKeys])];
      router[spec.method](
        toExpressPath(spec.path),
        ...(templated ? [skipShadowed] : []),
        ...beforeHandler(generic, access),
        handlerOf(generic),
      );
    },
  };
}

/** The operation in the OpenAPI description, from the same declaration that drives Express. */
function registerOperation(registry: OpenAPIRegistry, spec: AnyRoute): void {
  registry.registerPath({
    method: spec.method,
    path: spec.path,
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description && { description: spec.description }),
    ...(spec.deprecated && { deprecated: true }),
    tags: spec.tags,
    security: spec.public ? [] : [{ [BEARER_AUTH]: [] }, { [SESSION_AUTH]: [] }],
    request: {
      ...(spec.params && { params: spec.params as unknown as ZodObject }),
      ...(spec.query && { query: spec.query as unknown as ZodObject }),
      ...((spec.body ?? spec.unparsedBody ?? spec.jsonBytesBody ?? spec.xmlBody) && {
        body: {
          required: true,
          content: {
            ...((spec.body ?? spec.unparsedBody ?? spec.jsonBytesBody) && {
              'application/json': { schema: (spec.body ?? spec.unparsedBody ?? spec.jsonBytesBody)! },
            }),
            ...(spec.xmlBody && { 'application/xml': { schema: spec.xmlBody } }),
          },
        },
      }),
    },
    responses: documentedResponses(spec),
  });
}

/** Runs the route's handler on its parsed input and answers its reply; a closed connection aborts the handler's signal. */
function handlerOf(spec: AnyRoute): RequestHandler {
  return async (req, res) => {
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const input = {
      body: spec.body ? parseInput(spec.body, req.body, 'body', spec.input) : (req.body as unknown),
      query: spec.query ? parseInput(spec.query, req.query, 'query', spec.input) : undefined,
      params: spec.params ? parseInput(spec.params, req.params, 'path', spec.input) : undefined,
      auth: req.auth!,
      req,
      res,
      signal: gone.signal,
    };
    const reply = await spec.handler(input);
    if (!reply) return;
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.status(reply.status).json(reply.body);
  };
}

/**
 * What runs before a route's handler, in order: its deprecation headers, the declared body size, the access checks,
 * the route's own, then reading the body.
 */
function beforeHandler(spec: AnyRoute, access: RequestHandler[]): RequestHandler[] {
  // Every response of a deprecated operation says so, errors included.
  const deprecation: RequestHandler[] = spec.deprecated
    ? [
        (_req, res, next) => {
          for (const [name, value] of Object.entries(deprecationHeaders(spec.deprecated!))) res.setHeader(name, value);
          next();
        },
      ]
    : [];
  const limit = spec.bodyLimit ?? SMALL_BODY_BYTES;
  const body =
    spec.body || spec.unparsedBody ? jsonBody(limit) : spec.xmlBody || spec.jsonBytesBody ? rawBody(limit) : [];
  // An oversized declared body is refused before authentication and the route's own checks: it costs nothing to say.
  const declaredSize = body.length > 0 ? [refuseDeclaredOversize(limit)] : [];
  return [...deprecation, ...declaredSize, ...access, ...(spec.before ?? []), ...body];
}
