import type { Client } from '@temporalio/client';
import express, { type Express } from 'express';

import { eurosToUnits } from '../../domain/credits';
import type { SecretBox } from '../../domain/secret-box';
import type { Config } from '../../platform/config';
import { liveProvider } from '../../platform/peppol/participant-onboarding';
import type { Logger } from '../../platform/logger';
import type { OfficialValidator } from '../../platform/official-validator';
import { peppolLookupFrom } from '../../platform/peppol/lookup';
import { rateLimiter, type RateLimiter } from '../../services/rate-limits';
import type { UsageCounters } from '../../services/usage';
import type { Store } from '../../store';
import { authentication } from './authentication';
import { errorHandler, routeNotFound } from '../http/errors';
import { httpMetrics } from '../http/metrics';
import { cpuPool, type CpuPool } from './cpu-pool';
import { createRegistry, openApiDocumentFactory, type OpenApiDocument } from '../contract/openapi';
import { serveReferencePage } from './reference-page';
import { requestEnvironment, requestLogging, requireBodyMediaType } from '../http/request-context';
import { answerOptions, routeTable, type RouteTable } from './route-table';
import { accountRoutes } from './routes/account';
import { companyRoutes } from './routes/companies';
import { documentRoutes } from './routes/documents';
import { eventRoutes } from './routes/events';
import { renderingRoutes } from './routes/renderings';
import { inboxRoutes } from './routes/inbox';
import { replyRoutes } from './routes/replies';
import { kycRoutes } from './routes/kyc';
import { lookupRoutes } from './routes/lookup';
import { responseRoutes } from './routes/responses';
import { plumbingRoutes, type HealthProbes } from './routes/plumbing';
import { sessionRoutes } from './routes/sessions';
import { signupRoutes } from './routes/signup';
import { ublRoutes } from './routes/ubl';
import { describeWebhookDeliveries, webhookRoutes } from './routes/webhooks';
import { workspaceRoutes } from './routes/workspaces';
import { serveWebApp } from './web-app';

export interface AppDependencies {
  config: Config;
  logger: Logger;
  store: Store;
  /** Starts send workflows. */
  temporal: Client;
  probes: HealthProbes;
  usage: UsageCounters;
  /** Seals and opens webhook signing secrets. */
  secretBox: SecretBox;
  /** Seals the content of KYC documents (under its own key). */
  kycBox: SecretBox;
  /** The official Peppol rules (the public UBL validator). */
  validator: OfficialValidator;
  /** Worker threads for reading and converting documents (default: API_WORKER_THREADS of them). */
  cpu?: CpuPool;
  /** More routes, declared like the others (the tests add ones that exist only there). */
  extraRoutes?: (routes: RouteTable) => void;
}

/** Builds the API without listening, so tests and the server entry share it. */
export function createApp(dependencies: AppDependencies): Express {
  return createApi(dependencies).app;
}

export interface Api {
  app: Express;
  /** What `GET /v1/openapi.json` answers, for these server URLs: readable without a request (the SDK's generator). */
  openApiDocument: (servers: string[]) => OpenApiDocument;
}

/** The app and its OpenAPI description, made from the same route declarations. */
export function createApi(dependencies: AppDependencies): Api {
  const { config, logger, store, usage } = dependencies;
  const deps = { ...dependencies, cpu: dependencies.cpu ?? cpuPool(config.API_WORKER_THREADS) };
  const app = express();
  app.disable('x-powered-by');
  // Only the configured proxies may name the client address (X-Forwarded-For); by default none may.
  app.set('trust proxy', config.TRUSTED_PROXIES);
  // Plain `a=b` pairs: `a[$gt]=` stays a literal key instead of becoming an object.
  app.set('query parser', 'simple');

  const registry = createRegistry();
  const router = express.Router();
  const limiter = rateLimiter(store);
  const routes = routeTable(router, registry, authentication(store, config, limiter, usage));

  // No answer of ours is to be sniffed into another type (a JSON error read as HTML, the reference page's scripts).
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(httpMetrics());
  app.use(requestLogging(logger));
  app.use(requestEnvironment(config));
  app.use(answerOptions((path) => routes.allowedMethods(path)));
  // Bodies are read by each route after authentication, with its own size limit (api/http/json-body.ts).
  app.use(requireBodyMediaType((method, path) => routes.bodyKinds(method, path)));

  const openApiDocument = openApiDocumentFactory(registry);
  plumbingRoutes(routes, openApiDocument, deps.probes);
  serviceRoutes(routes, deps, limiter);
  describeWebhookDeliveries(registry);
  deps.extraRoutes?.(routes);
  app.use(router);
  serveReferencePage(app);
  serveWebApp(app);

  app.use(routeNotFound((path) => routes.allowedMethods(path)));
  app.use(errorHandler);
  return { app, openApiDocument };
}

/** Every route of the public API but the plumbing, each group given the dependencies it uses. */
function serviceRoutes(routes: RouteTable, deps: AppDependencies & { cpu: CpuPool }, limiter: RateLimiter): void {
  const { config, logger, store, temporal, usage, secretBox, kycBox, validator, cpu } = deps;
  signupRoutes(routes, store, limiter, config.SIGNUP_LIMIT);
  sessionRoutes(routes, {
    store,
    limiter,
    logger,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    limits: { linksPerAddress: config.SIGN_IN_LINKS_PER_ADDRESS, perIp: config.SIGN_IN_LIMIT },
    origins: { sandbox: config.PUBLIC_SANDBOX_URL, live: config.PUBLIC_LIVE_URL },
  });
  ublRoutes(routes, {
    validator,
    limiter,
    cpu,
    validationsPerHour: config.UBL_VALIDATIONS_PER_IP,
    maxBodyBytes: config.MAX_BODY_BYTES,
  });
  const lookup = peppolLookupFrom(config);
  lookupRoutes(routes, lookup, limiter, config.LOOKUP_LIMIT);
  accountRoutes(routes, store, usage);
  const credits = {
    priceUnits: eurosToUnits(config.LIVE_DOCUMENT_PRICE),
    lowThresholdUnits: eurosToUnits(config.CREDITS_LOW_THRESHOLD),
  };
  workspaceRoutes(routes, store, limiter, config.INVITES_BY_EMAIL_PER_DAY, credits.priceUnits);
  const provider = liveProvider();
  companyRoutes(routes, { store, provider, temporal, logger, secretBox });
  kycRoutes(routes, { store, temporal, logger, kycBox });
  const fanOut = {
    store,
    temporal,
    retryInitialMs: config.WEBHOOK_RETRY_INITIAL_INTERVAL,
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER,
    logger,
  };
  documentRoutes(routes, {
    ...fanOut,
    deliveryWindows: { sandbox: config.DELIVERY_WINDOW_SECONDS, live: config.LIVE_DELIVERY_WINDOW_SECONDS },
    limiter,
    maxBodyBytes: config.MAX_BODY_BYTES,
    sandboxRecipientsPerDay: config.SANDBOX_RECIPIENTS_PER_DAY,
    validator,
    credits,
    cpu,
  });
  renderingRoutes(routes, { store, validator, cpu });
  inboxRoutes(routes, { store, temporal, logger, cpu });
  responseRoutes(routes, {
    store,
    temporal,
    lookup,
    logger,
    deliveryWindowSeconds: config.LIVE_DELIVERY_WINDOW_SECONDS,
  });
  replyRoutes(routes, { store, temporal, logger });
  eventRoutes(routes, store);
  webhookRoutes(routes, { fanOut, secretBox, allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
}
