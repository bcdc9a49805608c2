import type { Client } from '@temporalio/client';
import express, { type Express } from 'express';

import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { rateLimiter } from '../services/rate-limits';
import { usageCounters } from '../services/usage';
import type { Store } from '../store';
import { authentication } from './authentication';
import { errorHandler, routeNotFound } from './errors';
import { createRegistry } from './openapi';
import { requestEnvironment, requestLogging, requireJsonBody } from './request-context';
import { routeTable } from './route';
import { accountRoutes } from './routes/account';
import { companyRoutes } from './routes/companies';
import { documentRoutes } from './routes/documents';
import { plumbingRoutes, type HealthProbes } from './routes/plumbing';
import { signupRoutes } from './routes/signup';
import { workspaceRoutes } from './routes/workspaces';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  store: Store;
  /** Starts send workflows. */
  temporal: Client;
  probes: HealthProbes;
}

/** Builds the API without listening, so tests and the server entry share it. */
export function createApp({ config, logger, store, temporal, probes }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // Only proxies on this machine or a private network may set the client address (X-Forwarded-For).
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  // Plain `a=b` pairs: `a[$gt]=` stays a literal key instead of becoming an object.
  app.set('query parser', 'simple');

  app.use(requestLogging(logger));
  app.use(requestEnvironment(config));
  app.use(requireJsonBody);
  app.use(express.json({ limit: config.MAX_BODY_BYTES, strict: true }));

  const registry = createRegistry();
  const router = express.Router();
  const limiter = rateLimiter(store);
  const routes = routeTable(router, registry, authentication(store, config, limiter, usageCounters(store)));
  plumbingRoutes(routes, registry, probes);
  signupRoutes(routes, store, limiter, config.SIGNUP_LIMIT);
  accountRoutes(routes, store);
  workspaceRoutes(routes, store);
  companyRoutes(routes, store);
  documentRoutes(routes, store, { store, temporal, deliveryWindowSeconds: config.DELIVERY_WINDOW_SECONDS, logger });
  app.use(router);

  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}
