import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createTransport } from 'nodemailer';

import { createActivities } from '../activities';
import { loadConfig, requireServiceAddresses } from '../platform/config';
import { connectDatabase } from '../platform/database';
import { createLogger } from '../platform/logger';
import { ensureSchedules, ensureSearchAttributes } from '../platform/temporal';
import { usageCounters } from '../services/usage';
import { openStore } from '../store';
import { TASK_QUEUE } from '../workflows/shared';
import { temporalLogger } from './temporal-logger';

/**
 * Process entry of the worker. The SDK runtime owns SIGINT/SIGTERM: it stops
 * polling, lets running activities finish, and `run()` resolves; then the
 * connections close.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  const addresses = requireServiceAddresses(config);
  Runtime.install({ logger: temporalLogger(logger), shutdownSignals: ['SIGINT', 'SIGTERM'] });

  const db = await connectDatabase(addresses.mongodbUri);
  // A client connection for the operator API, schedules and the reconciler's workflow starts.
  const clientConnection = await Connection.connect({ address: addresses.temporalAddress });
  await ensureSearchAttributes(clientConnection, config.TEMPORAL_NAMESPACE);
  await ensureSchedules(clientConnection, config.TEMPORAL_NAMESPACE);
  const store = await openStore(db);
  const mailer = createTransport(addresses.smtpUrl);

  const connection = await NativeConnection.connect({ address: addresses.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({
      store,
      logger,
      mailer,
      mailFrom: config.MAIL_FROM,
      usage: usageCounters(store),
      temporal: new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE }),
      deliveryWindowSeconds: config.DELIVERY_WINDOW_SECONDS,
    }),
  });
  logger.info({ taskQueue: TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker running');
  await worker.run();
  mailer.close();
  await Promise.all([db.close(), connection.close(), clientConnection.close()]);
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  createLogger('error', 'worker').fatal({ err }, err instanceof Error ? err.message : 'worker failed');
  process.exit(1);
});
