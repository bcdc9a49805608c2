import { Connection } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';

import { createActivities } from '../activities';
import { loadConfig, requireServiceAddresses } from '../platform/config';
import { connectDatabase } from '../platform/database';
import { createLogger } from '../platform/logger';
import { ensureSchedules, ensureSearchAttributes } from '../platform/temporal';
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
  const admin = await Connection.connect({ address: addresses.temporalAddress });
  await ensureSearchAttributes(admin, config.TEMPORAL_NAMESPACE);
  await ensureSchedules(admin, config.TEMPORAL_NAMESPACE);
  await admin.close();
  const store = await openStore(db);

  const connection = await NativeConnection.connect({ address: addresses.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: TASK_QUEUE,
    workflowsPath: require.resolve('../workflows'),
    activities: createActivities({ store, logger }),
  });
  logger.info({ taskQueue: TASK_QUEUE, namespace: config.TEMPORAL_NAMESPACE }, 'worker running');
  await worker.run();
  await Promise.all([db.close(), connection.close()]);
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  createLogger('error', 'worker').fatal({ err }, err instanceof Error ? err.message : 'worker failed');
  process.exit(1);
});
