import type http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client, Connection } from '@temporalio/client';
import type { Express } from 'express';
import type { Connection as DbConnection } from 'mongoose';

import { createApp, type AppDependencies } from '../../api/public/app';
import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { officialValidator } from '../../platform/official-validator';
import { usageCounters } from '../../services/usage';
import { createStore } from '../../store';
import { sharedStack } from './test-stack';

/**
 * The API built in the test's own process, on the shared stack's services,
 * with the settings the test names: for what needs a configuration of its own
 * (a larger body limit, other proxies, a probe that fails, a route that exists
 * only in the tests).
 */
export function inProcessApp(
  db: DbConnection,
  env: Record<string, string> = {},
  overrides: Partial<AppDependencies> = {},
): Express {
  const logger = createLogger('silent', 'test');
  const store = overrides.store ?? createStore(db);
  return createApp({
    config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
    logger,
    store,
    temporal: new Client({ connection: Connection.lazy({ address: sharedStack().temporalAddress }) }),
    probes: {
      db: () => Promise.resolve(true),
      temporal: () => Promise.resolve(true),
      validator: () => Promise.resolve(undefined),
    },
    usage: usageCounters(store, logger),
    secretBox: new SecretBox(newSecretKey()),
    kycBox: new SecretBox(newSecretKey()),
    validator: officialValidator(sharedStack().validatorUrl),
    ...overrides,
  });
}

/** Listens on a free loopback port: the base URL, and how to stop. */
export async function listening(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await new Promise<http.Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
