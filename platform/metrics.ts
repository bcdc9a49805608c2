import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import { isIPv6 } from 'node:net';

import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

import type { Logger } from './logger';

/**
 * Every metric the API and the worker expose, in Prometheus' text format
 * (prom-client), each process on an internal listener of its own
 * (METRICS_PORT, WORKER_METRICS_PORT on METRICS_BIND), never on the public
 * port. The metrics are counted where things happen (services, activities,
 * the validator's client); what the database says (work in progress, stuck
 * work) is read when Prometheus scrapes the API. With several processes
 * (node:cluster) the primary answers the scrape with every copy's metrics
 * summed, and the readings of the shared database once.
 */

const PREFIX = 'einvoice_';

/** Seconds: fast answers of the API up to the 60 s a document validation may take. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: a webhook is first delivered within a second, or after retries that double from 30 s over a day. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];
/** Seconds: a validation takes tens of milliseconds to a few seconds, and stops at 60. */
const VALIDATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60];

export const httpRequests = new Counter({
  name: `${PREFIX}http_requests_total`,
  help: 'Requests the public API answered, by route pattern (unmatched: no route), method and status',
  labelNames: ['route', 'method', 'status'] as const,
});

export const httpRequestDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: 'Time from a request to its answer, by route pattern and method',
  labelNames: ['route', 'method'] as const,
  buckets: REQUEST_BUCKETS,
});

export const documentsReached = new Counter({
  name: `${PREFIX}documents_total`,
  help: 'Documents that reached a status, by direction (sent: queued, sending, delivered, failed; received: received)',
  labelNames: ['direction', 'status'] as const,
});

export const repliesDone = new Counter({
  name: `${PREFIX}replies_total`,
  help: 'Invoice Responses and Message Level Statuses, by kind (invoice_response, mls), direction and outcome (sent, failed; received)',
  labelNames: ['kind', 'direction', 'outcome'] as const,
});

export const webhookAttempts = new Counter({
  name: `${PREFIX}webhook_attempts_total`,
  help: 'Webhook delivery attempts, by outcome (succeeded: a 2xx answer; failed)',
  labelNames: ['outcome'] as const,
});

export const webhookDeliveries = new Counter({
  name: `${PREFIX}webhook_deliveries_total`,
  help: 'Webhook deliveries settled, by outcome (succeeded; failed: every attempt failed, dead-lettered)',
  labelNames: ['outcome'] as const,
});

export const webhookLag = new Histogram({
  name: `${PREFIX}webhook_delivery_lag_seconds`,
  help: 'From the event to the first successful delivery of it to a webhook',
  buckets: LAG_BUCKETS,
});

export const as4Sends = new Counter({
  name: `${PREFIX}as4_sends_total`,
  help: 'AS4 sends by our access point (documents and replies), by outcome (delivered: receipted; refused: for good by the receiving access point; no_endpoint: the receiver takes none such; failed: tried again)',
  labelNames: ['outcome'] as const,
});

export const as4Received = new Counter({
  name: `${PREFIX}as4_received_total`,
  help: 'AS4 messages our access point handed to the intake, by outcome (stored: the receipt goes out; repeated: stored before; not_serviced, id_reused: refused; not_stored: the sender tries again)',
  labelNames: ['outcome'] as const,
});

export const validationDuration = new Histogram({
  name: `${PREFIX}validation_duration_seconds`,
  help: "Official validations as this service waited for them, by the validator's lane and outcome (valid, invalid, not_ubl, not_well_formed, time_limit, unavailable)",
  labelNames: ['lane', 'outcome'] as const,
  buckets: VALIDATION_BUCKETS,
});

export const creditsSpent = new Counter({
  name: `${PREFIX}credits_spent_euros_total`,
  help: 'Credits reserved by live documents when accepted, in euros',
});

export const creditsReleased = new Counter({
  name: `${PREFIX}credits_released_euros_total`,
  help: 'Reservations given back (the document failed, or its request never stored it), in euros',
});

/** What the database and the validator say at a scrape (services/work-readings.ts reads it). */
export interface WorkReading {
  /** Work that should move on: documents queued or sending, received messages not yet filed (receiving). */
  inProgress: { status: string; count: number; oldestSeconds: number }[];
  /** Work that has not moved for longer than the stuck threshold, by kind. */
  stuck: { kind: string; count: number }[];
  /** The validator's lanes; empty when it does not answer. */
  lanes: { lane: string; permits: number; running: number; completed: number; stopped: number; lost: number }[];
}

/** Kept for a second: the gauges of one scrape share one reading, each asking for it as prom-client collects it. */
const READING_REUSE_MS = 1_000;

/**
 * Gauges read at each scrape, in the API only. Every API process reads the same database, so the copies'
 * values are the same: the primary keeps one of them (`max`) rather than their sum.
 */
export function observeWork(read: () => Promise<WorkReading>, logger: Logger): void {
  let last: { at: number; reading: Promise<WorkReading | undefined> } | undefined;
  const reading = () => {
    if (!last || Date.now() - last.at > READING_REUSE_MS) {
      last = {
        at: Date.now(),
        reading: read().catch((err: unknown) => {
          logger.warn({ err }, 'metrics: could not read the work in progress; its gauges are left out of this scrape');
          return undefined;
        }),
      };
    }
    return last.reading;
  };
  const gauge = <L extends string>(
    name: string,
    help: string,
    label: L,
    values: (reading: WorkReading) => { key: string; value: number }[],
  ) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      labelNames: [label],
      aggregator: 'max',
      async collect() {
        this.reset();
        const now = await reading();
        for (const { key, value } of now ? values(now) : []) this.set({ [label]: key } as Record<L, string>, value);
      },
    });
  gauge(
    'documents_in_progress',
    'Documents in a status that moves on: queued, sending, receiving (received, not yet filed)',
    'status',
    (now) => now.inProgress.map(({ status, count }) => ({ key: status, value: count })),
  );
  gauge(
    'documents_oldest_age_seconds',
    'How long the document waiting longest in the status has been in it (0: none waits)',
    'status',
    (now) => now.inProgress.map(({ status, oldestSeconds }) => ({ key: status, value: oldestSeconds })),
  );
  gauge(
    'stuck_work',
    'Documents, Invoice Responses, Message Level Statuses and webhook deliveries that have not moved for longer than the stuck threshold (ops stuck lists them)',
    'kind',
    (now) => now.stuck.map(({ kind, count }) => ({ key: kind, value: count })),
  );
  gauge(
    'validator_lane_permits',
    "The official validator's permits per lane: validations it runs at once",
    'lane',
    (now) => now.lanes.map(({ lane, permits }) => ({ key: lane, value: permits })),
  );
  gauge('validator_lane_running', "The official validator's validations running per lane", 'lane', (now) =>
    now.lanes.map(({ lane, running }) => ({ key: lane, value: running })),
  );
  new Counter({
    name: `${PREFIX}validator_lane_jobs_total`,
    help: "The official validator's jobs per lane since it started, by how they ended: completed (answered), stopped (its worker killed at the time limit or on cancel) or lost (its worker died without an answer)",
    labelNames: ['lane', 'outcome'],
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const { lane, completed, stopped, lost } of (await reading())?.lanes ?? []) {
        for (const [outcome, value] of Object.entries({ completed, stopped, lost })) this.inc({ lane, outcome }, value);
      }
    },
  });
}

/** `host:port` as the Temporal SDK's core binds it: brackets around an IPv6 address. */
export function bindAddress(host: string, port: number): string {
  return `${isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/**
 * The metrics listener, `GET /metrics`: this process's metrics, or, in the primary of several copies,
 * all of theirs together. A copy serves none: it answers its primary over the cluster's channel, from the
 * moment this is called (at start, before its work connects anywhere, so a starting copy never holds up a
 * scrape). A process whose metrics are exposed adds Node's own (CPU, memory, event loop, garbage collection).
 */
export async function serveMetrics(
  options: { port: number; host: string; copies: number },
  logger: Logger,
): Promise<Server | undefined> {
  const primary = cluster.isPrimary && options.copies > 1;
  if (!primary) collectDefaultMetrics({ prefix: PREFIX });
  // Constructing it is what makes a copy answer its primary (prom-client adds its listener then).
  if (cluster.isWorker) {
    new AggregatorRegistry();
    return undefined;
  }
  const source = primary ? new AggregatorRegistry() : register;
  const exposition = () => (source instanceof AggregatorRegistry ? source.clusterMetrics() : source.metrics());
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://metrics').pathname !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    exposition().then(
      (text) => res.writeHead(200, { 'Content-Type': source.contentType }).end(text),
      (err: unknown) => {
        logger.error({ err }, 'metrics: the scrape failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  // Never what keeps a process alive: it stops when its work does.
  server.unref();
  logger.info({ port: options.port, host: options.host, copies: options.copies }, 'metrics listening');
  return server;
}
