import type { Server } from 'node:http';

import { Client } from '@temporalio/client';

import { loadConfig, requireServiceAddresses } from '../platform/config';
import { connectDatabase, pingDatabase } from '../platform/database';
import { createLogger } from '../platform/logger';
import { officialValidator } from '../platform/official-validator';
import { connectTemporalClient, pingTemporal } from '../platform/temporal';
import { SecretBox } from '../domain/secret-box';
import { usageCounters } from '../services/usage';
import { openStore } from '../store';
import { createApp } from './app';
import { cpuPool } from './offload';

/** Process entry of the API: connect, listen, and on SIGTERM/SIGINT drain and close. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const addresses = requireServiceAddresses(config, 'api');

  const db = await connectDatabase(addresses.mongodbUri);
  const store = await openStore(db, { strictQueryShapes: config.STRICT_QUERY_SHAPES });
  const temporal = connectTemporalClient(addresses.temporalAddress);
  const usage = usageCounters(store, logger);
  const validator = officialValidator(addresses.validatorUrl);
  const cpu = cpuPool(config.API_WORKER_THREADS);
  const app = createApp({
    config,
    logger,
    store,
    temporal: new Client({ connection: temporal, namespace: config.TEMPORAL_NAMESPACE }),
    probes: { db: () => pingDatabase(db), temporal: () => pingTemporal(temporal), validator: () => validator.ruleSet() },
    usage,
    secretBox: new SecretBox(addresses.webhookSecretKey),
    kycBox: new SecretBox(addresses.kycEncryptionKey),
    validator,
    cpu,
  });

  const server = app.listen(config.PORT, config.BIND_HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info({ port: config.PORT, host: config.BIND_HOST }, 'api listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    closeServer(server, 10_000)
      .then(() => usage.flush())
      .then(() => Promise.all([db.close(), temporal.close(), cpu.close()]))
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'api shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** Stops accepting connections, lets in-flight requests finish, then cuts the rest. */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

main().catch((err: unknown) => {
  // Logged as JSON so the line is parsed like the rest; config errors name the variable.
  createLogger('error', 'api').fatal({ err }, err instanceof Error ? err.message : 'api failed to start');
  process.exit(1);
});
