import type { Request, RequestHandler } from 'express';

import { httpRequestDuration, httpRequests } from '../../platform/metrics';

/**
 * Counts every answer of the public API and times it, labelled by the route's
 * Express pattern (`/v1/documents/:id`), never the path as sent: ids would
 * make a series per document, and a client could make series at will.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const stop = httpRequestDuration.startTimer();
    res.once('finish', () => {
      const labels = { route: routePattern(req), method: req.method };
      stop(labels);
      httpRequests.inc({ ...labels, status: String(res.statusCode) });
    });
    next();
  };
}

/** The pattern of the route that answered; `unmatched` when none did (404s, OPTIONS, refusals before routing). */
function routePattern(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}
