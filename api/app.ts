import express, { type Express } from 'express';

import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import { errorHandler, routeNotFound } from './errors';
import { createRegistry } from './openapi';
import { requestEnvironment, requestLogging, requireJsonBody } from './request-context';
import { plumbingRoutes, type HealthProbes } from './routes/plumbing';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  probes: HealthProbes;
}

/** Builds the API without listening, so tests and the server entry share it. */
export function createApp({ config, logger, probes }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.set('query parser', 'simple');

  app.use(requestLogging(logger));
  app.use(requestEnvironment(config));
  app.use(requireJsonBody);
  app.use(express.json({ limit: config.MAX_BODY_BYTES, strict: true }));

  const registry = createRegistry();
  const router = express.Router();
  plumbingRoutes(router, registry, probes);
  app.use(router);

  app.use(routeNotFound);
  app.use(errorHandler);
  return app;
}
