import { Client, Connection } from '@temporalio/client';
import mongoose from 'mongoose';

import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { officialValidator } from '../../platform/official-validator';
import { usageCounters } from '../../services/usage';
import { createStore } from '../../store';
import { createApi } from './app';
import type { CpuPool } from './cpu-pool';
import type { OpenApiDocument } from '../contract/openapi';

/** Declaring routes never runs a task; a thread pool here would only be started and stopped for nothing. */
const noThreads: CpuPool = {
  run: () => Promise.reject(new Error('the API was built to be described, not to serve')),
  close: () => Promise.resolve(),
};

/**
 * The description `GET /v1/openapi.json` serves, made in this process from
 * the route declarations alone: no database, no Temporal, no socket. The
 * dependencies are inert (a connection never opened, a lazy Temporal
 * connection never used, the default configuration), since declaring a route
 * touches none of them; the SDK's types are generated from this.
 */
export function describeApi(servers: string[] = []): OpenApiDocument {
  const logger = createLogger('silent', 'describe');
  const store = createStore(mongoose.createConnection());
  const { openApiDocument } = createApi({
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    logger,
    store,
    temporal: new Client({ connection: Connection.lazy({ address: '127.0.0.1:7233' }) }),
    probes: {
      db: () => Promise.resolve(false),
      temporal: () => Promise.resolve(false),
      validator: () => Promise.resolve(undefined),
    },
    usage: usageCounters(store, logger),
    secretBox: new SecretBox(newSecretKey()),
    kycBox: new SecretBox(newSecretKey()),
    validator: officialValidator('http://127.0.0.1:1'),
    cpu: noThreads,
  });
  return openApiDocument(servers);
}
