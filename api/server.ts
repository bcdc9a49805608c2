// First: tracing, when on, instruments node:http as the imports below load it.
import { tracing } from './http/tracing';

import type { Server } from 'node:http';

import { Client } from '@temporalio/client';

import { loadConfig, requireServiceAddresses, type Config } from '../platform/config';
import { connectDatabase, pingDatabase, watchDatabase } from '../platform/database';
import { createLogger, type Logger } from '../platform/logger';
import { observeWork, serveMetrics } from '../platform/metrics';
import { officialValidator } from '../platform/official-validator';
import { runCopies } from '../platform/process-copies';
import { exitIfStopStalls } from '../platform/shutdown';
import { connectTemporalClient, pingTemporal } from '../platform/temporal';
import { SecretBox } from '../domain/secret-box';
import { readWork } from '../services/stuck-work';
import { usageCounters } from '../services/usage';
import { serviceProviderParticipant } from '../domain/peppol/ids';
import { openStore, type Store } from '../store';
import type { IntakeDependencies } from '../services/receiving/intake';
import { createApp } from './public/app';
import { inboundApp } from './intake/server';
import { ourSmpApp } from './smp/server';
import { cpuPool } from './public/cpu-pool';

/**
 * Process entry of the API: connect, listen, and on SIGTERM/SIGINT drain and
 * close; API_PROCESSES copies of it share the ports (platform/process-copies.ts).
 * Its metrics are on METRICS_PORT, the copies' together (platform/metrics.ts).
 * Nothing a request relies on is kept in one process only: rate-limit windows,
 * idempotency keys and usage counters are in the database.
 */
async function main(config: Config, logger: Logger): Promise<void> {
  const addresses = requireServiceAddresses(config, 'api');

  const db = await connectDatabase(addresses.mongodbUri);
  // A connection that does not come back after the database restarted ends the process; its supervisor starts another.
  const watch = watchDatabase(db, addresses.mongodbUri, logger, () => process.exit(1));
  const store = await openStore(db, { strictQueryShapes: config.STRICT_QUERY_SHAPES });
  observeWork(() => readWork(store, addresses.validatorUrl), logger);
  const temporal = connectTemporalClient(addresses.temporalAddress);
  const usage = usageCounters(store, logger);
  const validator = officialValidator(addresses.validatorUrl);
  const cpu = cpuPool(config.API_WORKER_THREADS);
  const temporalClient = new Client({
    connection: temporal,
    namespace: config.TEMPORAL_NAMESPACE,
    interceptors: tracing.clientInterceptors,
  });
  const app = createApp({
    config,
    logger,
    store,
    temporal: temporalClient,
    probes: {
      db: () => pingDatabase(db),
      temporal: () => pingTemporal(temporal),
      validator: () => validator.ruleSet(),
    },
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
  const inbound = await listenForInbound(config, { store, temporal: temporalClient, logger });
  const smp = await listenForSmp(config, store, logger);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    exitIfStopStalls(logger);
    watch.stop();
    Promise.all([server, inbound, smp].flatMap((listening) => (listening ? [closeServer(listening, 10_000)] : [])))
      .then(() => usage.flush())
      .then(() => Promise.all([db.close(), temporal.close(), cpu.close(), tracing.shutdown()]))
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        logger.error({ err }, 'api shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** The intake for our access point; without INBOUND_TOKEN there is none (no message could be authenticated). */
async function listenForInbound(config: Config, deps: IntakeDependencies): Promise<Server | undefined> {
  if (!config.INBOUND_TOKEN) {
    deps.logger.warn(
      'INBOUND_TOKEN is not set: the intake for received AS4 messages is not listening, so nothing is received',
    );
    return undefined;
  }
  const server = inboundApp({
    ...deps,
    token: config.INBOUND_TOKEN,
    serviceProvider: config.PEPPOL_SEAT_ID && serviceProviderParticipant(config.PEPPOL_SEAT_ID),
  }).listen(config.INBOUND_PORT, config.INBOUND_BIND);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  deps.logger.info(
    { port: config.INBOUND_PORT, host: config.INBOUND_BIND },
    'intake for received AS4 messages listening',
  );
  return server;
}

/** Our SMP, when SMP_PORT is set: public like the API, on the same interface. */
async function listenForSmp(config: Config, store: Store, logger: Logger): Promise<Server | undefined> {
  const app = ourSmpApp(config, store, logger);
  if (!app) return undefined;
  const server = app.listen(config.SMP_PORT!, config.BIND_HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info({ port: config.SMP_PORT, host: config.BIND_HOST, publicUrl: config.SMP_PUBLIC_URL }, 'our SMP listening');
  return server;
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

/** Logged as JSON so the line is parsed like the rest; config errors name the variable. */
function failed(err: unknown): never {
  createLogger('error', 'api').fatal({ err }, err instanceof Error ? err.message : 'api failed to start');
  process.exit(1);
}

try {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  runCopies(config.API_PROCESSES, logger, () => main(config, logger), failed);
  serveMetrics({ port: config.METRICS_PORT, host: config.METRICS_BIND, copies: config.API_PROCESSES }, logger).catch(
    failed,
  );
} catch (err) {
  failed(err);
}
