// First: tracing, when on, instruments node:http as the imports below load it.
import { tracing } from './tracing';

import { hostname } from 'node:os';
import path from 'node:path';

import { Client, Connection, WorkflowIdReusePolicy } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';

import { createActivities } from '../activities';
import { serviceProviderParticipant } from '../domain/peppol/ids';
import { SecretBox } from '../domain/secret-box';
import { loadConfig, requireServiceAddresses, type Config, type ServiceAddresses } from '../platform/config';
import { connectDatabase, watchDatabase } from '../platform/database';
import { createLogger, type Logger } from '../platform/logger';
import { bindAddress, serveMetrics } from '../platform/metrics';
import { officialValidator, validatorLanes } from '../platform/official-validator';
import { copyIndex, processIdentity, runCopies } from '../platform/process-copies';
import { exitIfStopStalls } from '../platform/shutdown';
import { peppolAccessPoint } from '../platform/peppol/access-point';
import { cachedPeppolLookup } from '../platform/peppol/cached-lookup';
import { peppolLookupFrom } from '../platform/peppol/lookup';
import { businessCardPublishing, smlRegistration } from '../platform/peppol/network-registration';
import { startWorkflow } from '../platform/workflow-port';
import { usageCounters, type UsageCounters } from '../services/usage';
import { openStore, type Store } from '../store';
import { serviceProviderWorkflowId, TASK_QUEUE } from '../workflows/shared';
import { buildIdOf, takeOverIfNewest, WORKER_DEPLOYMENT_NAME } from './deployment';
import { configuredSlots, QueueWorkers } from './task-queues';
import { temporalLogger } from './temporal-logger';
import { ensureSchedules, ensureSearchAttributes } from './temporal-setup';

/**
 * Process entry of the worker. The SDK runtime owns SIGINT/SIGTERM: it stops
 * polling, lets running activities finish, and `run()` resolves; then the
 * connections close. Workflow code comes pre-bundled (worker/workflow-bundle.ts).
 * It polls the task queues WORKER_TASK_QUEUES names, a Temporal worker each
 * with the slots of its resource (worker/task-queues.ts).
 * WORKER_PROCESSES copies of it poll the same task queues
 * (platform/process-copies.ts); what each does at start (search attributes,
 * schedules, the service provider's registration) is safe to do N times at once.
 * Its metrics are on WORKER_METRICS_PORT (the copies' together), the Temporal
 * SDK's on TEMPORAL_METRICS_PORT (+ the copy's place).
 */
async function main(config: Config, logger: Logger): Promise<void> {
  const addresses = requireServiceAddresses(config, 'worker');
  installRuntime(config, logger);
  // The runtime drains on the signal; a drain that hangs (its Temporal server gone too) ends at the deadline.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => exitIfStopStalls(logger));

  const db = await connectDatabase(addresses.mongodbUri);
  const store = await openStore(db, { strictQueryShapes: config.STRICT_QUERY_SHAPES });
  logger.info('database connected');
  // A connection that does not come back after the database restarted ends the process; Temporal hands its tasks to the next.
  const watch = watchDatabase(db, addresses.mongodbUri, logger, () => process.exit(1));
  // A client connection for the operator API, schedules and the reconciler's workflow starts.
  const clientConnection = await Connection.connect({ address: addresses.temporalAddress });
  await ensureSearchAttributes(clientConnection, config.TEMPORAL_NAMESPACE);
  await ensureSchedules(clientConnection, config.TEMPORAL_NAMESPACE);
  logger.info(
    { address: addresses.temporalAddress, namespace: config.TEMPORAL_NAMESPACE },
    'temporal connected; search attributes and schedules in place',
  );

  const usage = usageCounters(store, logger);
  const temporalClient = new Client({
    connection: clientConnection,
    namespace: config.TEMPORAL_NAMESPACE,
    interceptors: tracing.clientInterceptors,
  });
  const codePath = config.WORKFLOW_BUNDLE ?? path.join(__dirname, '..', 'workflow-bundle.js');
  const version = {
    deploymentName: WORKER_DEPLOYMENT_NAME,
    buildId: config.WORKER_BUILD_ID ?? (await buildIdOf(codePath)),
  };
  const connection = await NativeConnection.connect({ address: addresses.temporalAddress });
  const sml = smlRegistration(addresses.accessPointUrl);
  const sendPermits = (await validatorLanes(addresses.validatorUrl)).find((lane) => lane.lane === 'send')?.permits;
  const slots = configuredSlots(config, sendPermits);
  const workers = await QueueWorkers.create({
    connection,
    // Each copy its own, naming its primary: the embedded stack counts the copies polling.
    identity: processIdentity(hostname()),
    namespace: config.TEMPORAL_NAMESPACE,
    baseQueue: TASK_QUEUE,
    resources: config.WORKER_TASK_QUEUES,
    codePath,
    slots,
    version,
    shared: tracing.worker,
    activities: activitiesOf(config, addresses, { store, logger, usage, temporal: temporalClient, sml }),
  });
  logger.info({ taskQueues: config.WORKER_TASK_QUEUES, slots, bundle: codePath, ...version }, 'worker running');
  const stopping = new AbortController();
  void takeOverIfNewest(clientConnection, config.TEMPORAL_NAMESPACE, version, logger, stopping.signal).catch(
    (err: unknown) =>
      logger.error(
        { err, ...version },
        'could not make this build the current version; set it with `temporal worker deployment set-current-version`',
      ),
  );
  // Message Level Status comes to our service provider participant: the SML must name our SMP for it (our SMP serves it already).
  if (config.PEPPOL_SEAT_ID) {
    const participant = serviceProviderParticipant(config.PEPPOL_SEAT_ID);
    void startWorkflow(temporalClient, 'registerServiceProviderWorkflow', {
      workflowId: serviceProviderWorkflowId(participant),
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      input: { participant },
      staticSummary: `SML registration of our service provider participant ${participant}`,
    }).catch((err: unknown) =>
      logger.error({ err, participant }, 'could not start the registration of our service provider participant'),
    );
  }
  await workers.run();
  stopping.abort();
  watch.stop();
  await usage.flush();
  await Promise.all([db.close(), connection.close(), clientConnection.close(), tracing.shutdown()]);
  logger.info('worker stopped');
}

/** The activities this worker runs, each given the clients it uses. */
function activitiesOf(
  config: Config,
  addresses: ServiceAddresses & { accessPointUrl: string },
  { store, logger, usage, temporal, sml }: ActivityProcessParts,
) {
  return createActivities({
    store,
    logger,
    smtpUrl: addresses.smtpUrl,
    mailFrom: config.MAIL_FROM,
    operatorEmail: config.OPERATOR_EMAIL,
    usage,
    temporal,
    deliveryWindows: { sandbox: config.DELIVERY_WINDOW_SECONDS, live: config.LIVE_DELIVERY_WINDOW_SECONDS },
    secretBox: new SecretBox(addresses.webhookSecretKey),
    allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    validator: officialValidator(addresses.validatorUrl),
    peppol: {
      // Kept in the process that sends: receivers sent to again within the TTL are not looked up again.
      lookup: cachedPeppolLookup(peppolLookupFrom(config), {
        maxSeconds: config.PEPPOL_LOOKUP_CACHE_SECONDS,
        maxEntries: config.PEPPOL_LOOKUP_CACHE_ENTRIES,
      }),
      accessPoint: peppolAccessPoint(addresses.accessPointUrl),
      ...(config.PEPPOL_SEAT_ID && {
        mls: { to: serviceProviderParticipant(config.PEPPOL_SEAT_ID), type: config.PEPPOL_MLS_TYPE },
      }),
    },
    sml,
    directory: businessCardPublishing(addresses.accessPointUrl),
    reporting: {
      receiver: config.PEPPOL_REPORTING_RECEIVER,
      sender: config.PEPPOL_REPORTING_SENDER,
      country: config.PEPPOL_REPORTING_COUNTRY,
    },
    fanOut: {
      store,
      temporal,
      retryInitialMs: config.WEBHOOK_RETRY_INITIAL_INTERVAL,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER,
      logger,
    },
  });
}

/** What the worker process made before its activities: its store, log, counters, Temporal client and SML client. */
interface ActivityProcessParts {
  store: Store;
  logger: Logger;
  usage: UsageCounters;
  temporal: Client;
  sml: ReturnType<typeof smlRegistration>;
}

/** Temporal's runtime: its log into ours, shutdown on the signals, and the SDK's metrics on this copy's port. */
function installRuntime(config: Config, logger: Logger): void {
  Runtime.install({
    logger: temporalLogger(logger),
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    // The SDK's own metrics (task slots, poll and schedule-to-start latencies, sticky cache), served by its core
    // on a port of each copy's own: copies share no socket with it, so each takes the next port.
    telemetryOptions: {
      metrics: {
        prometheus: {
          bindAddress: bindAddress(config.METRICS_BIND, config.TEMPORAL_METRICS_PORT + copyIndex()),
          useSecondsForDurations: true,
        },
      },
    },
  });
}

function failed(err: unknown): never {
  createLogger('error', 'worker').fatal({ err }, err instanceof Error ? err.message : 'worker failed');
  process.exit(1);
}

try {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  // Exits once drained: a copy's channel to its primary would keep it alive.
  runCopies(config.WORKER_PROCESSES, logger, () => main(config, logger).then(() => process.exit(0)), failed);
  serveMetrics(
    { port: config.WORKER_METRICS_PORT, host: config.METRICS_BIND, copies: config.WORKER_PROCESSES },
    logger,
  ).catch(failed);
} catch (err) {
  failed(err);
}
