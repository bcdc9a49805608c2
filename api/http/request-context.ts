import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';

import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/logger';
import { environmentForHost, type Environment } from '../../domain/environment';
import { unsupportedMediaType } from './errors';
import type { BodyKind } from '../public/route-table';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Sandbox or live, from the Host header. */
      environment: Environment;
      /** Scheme and host this request addressed, for links in responses. */
      origin: string;
    }
  }
}

const REQUEST_ID_HEADER = 'X-Request-Id';
const acceptableIncomingId = /^[A-Za-z0-9._:-]{8,64}$/;

/** A caller-supplied request id is kept when it is sane, so traces can span systems. */
function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id =
    typeof incoming === 'string' && acceptableIncomingId.test(incoming)
      ? incoming
      : `req_${randomBytes(12).toString('hex')}`;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Request id on the response and on every log line written while handling it. */
export function requestLogging(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: requestIdFor,
    // Binds request_id to req.log, so every line written while handling the request carries it.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
    // The caller, once known: account and key prefix (never the key or its hash).
    customProps: (req) => {
      const { auth } = req as Request;
      return auth ? { account_id: auth.accountId, key_prefix: auth.keyPrefix } : {};
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug',
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
}

/**
 * Resolves the environment (from the Host header) and the public origin (from
 * configuration, never from the request) once per request.
 */
export function requestEnvironment(
  config: Pick<Config, 'LIVE_HOSTS' | 'PUBLIC_LIVE_URL' | 'PUBLIC_SANDBOX_URL'>,
): RequestHandler {
  return (req, _res, next) => {
    req.environment = environmentForHost(req.headers.host, config.LIVE_HOSTS);
    req.origin = req.environment === 'live' ? config.PUBLIC_LIVE_URL : config.PUBLIC_SANDBOX_URL;
    next();
  };
}

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);

export const XML_MEDIA_TYPES = ['application/xml', 'text/xml'];

/**
 * A body that is sent must be of a media type the route takes: XML where it
 * takes a UBL document, JSON everywhere else, either where it takes both
 * (`bodyKinds`). An empty body on POST
 * is fine (some actions take none); where no route has the method and path,
 * the router answers 404 or 405 whatever the body is.
 */
export function requireBodyMediaType(
  bodyKinds: (method: string, path: string) => BodyKind[] | undefined,
): RequestHandler {
  return (req, _res, next) => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const kinds = bodyKinds(req.method, req.path);
    if (!methodsWithBody.has(req.method) || !hasBody || !kinds) {
      next();
      return;
    }
    const expected = kinds.flatMap((kind) => (kind === 'xml' ? XML_MEDIA_TYPES : ['application/json']));
    if (!req.is(expected)) {
      next(unsupportedMediaType(expected.join(' or '), req.headers['content-type'] ?? 'no Content-Type'));
      return;
    }
    next();
  };
}
