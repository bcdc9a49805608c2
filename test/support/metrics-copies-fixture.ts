import { createLogger } from '../../platform/logger';
import { documentsReached, observeWork, serveMetrics } from '../../platform/metrics';
import { runCopies } from '../../platform/process-copies';

/**
 * A stand-in entry for test/unit/metrics-copies.test.ts, wired as the API's: COPIES copies, each counting one
 * queued document and reading the same work in progress (7 queued, 2 stuck) as every copy of the API reads
 * the one database; the metrics served on PORT.
 */
const copies = Number(process.env.COPIES);
const logger = createLogger('silent', 'metrics-copies');
const fail = (err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
};
runCopies(
  copies,
  logger,
  () => {
    observeWork(
      () =>
        Promise.resolve({
          inProgress: [{ status: 'queued', count: 7, oldestSeconds: 30 }],
          stuck: [{ kind: 'document', count: 2 }],
          lanes: [],
        }),
      logger,
    );
    documentsReached.inc({ direction: 'sent', status: 'queued' });
    // Stays up until stopped, as the API does.
    setInterval(() => undefined, 60_000);
    process.on('SIGTERM', () => process.exit(0));
    return Promise.resolve();
  },
  fail,
);
serveMetrics({ port: Number(process.env.PORT), host: '127.0.0.1', copies }, logger).catch(fail);
