import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { loadStackConfig, type StackConfig } from './config';
import { freePort, freePortBlock } from './ports';
import { TEMPORAL_INTERNAL_PORT_COUNT } from './production/temporal-server';

/** The most worker processes a test or benchmark stack runs (the default count's ceiling). */
const MAX_WORKER_COPIES = 8;

/**
 * Configuration for a stack of its own: a fresh data directory and free ports,
 * so test and benchmark stacks never collide with `npm start` or each other.
 * Services configured through MONGODB_URI, TEMPORAL_ADDRESS, SMTP_URL, VALIDATOR_URL or ACCESS_POINT_URL are used as they are.
 * One API and one worker process whatever the machine's cores, unless told otherwise: a test or a
 * benchmark behaves the same on a large machine (the benchmarks' processes part sets its own counts).
 */
export async function isolatedStackConfig(overrides: Record<string, string> = {}): Promise<StackConfig> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-stack-'));
  const ports: Record<string, string> = {};
  for (const name of [
    'PORT',
    'API_BEHIND_FRONT_PORT',
    'POSTGRES_PORT',
    'TEMPORAL_PORT',
    'TEMPORAL_UI_PORT',
    'FERRETDB_PORT',
    'SMTP_PORT',
    'MAIL_UI_PORT',
    'VALIDATOR_PORT',
    'SML_DNS_PORT',
    'STANDIN_SML_PORT',
    'STANDIN_SMP_PORT',
    'SMP_PORT',
    'PEPPOL_RECEIVER_PORT',
    'OXALIS_PORT',
    'ACCESS_POINT_PORT',
    'ACCESS_POINT_AS4_PORT',
    'INBOUND_PORT',
    'METRICS_PORT',
    'WORKER_METRICS_PORT',
  ]) {
    ports[name] = String(await freePort());
  }
  ports.TEMPORAL_INTERNAL_PORT = String(await freePortBlock(TEMPORAL_INTERNAL_PORT_COUNT));
  // One for each worker process the stack may be asked to run (the Temporal SDK's metrics of copy N on the Nth).
  ports.TEMPORAL_METRICS_PORT = String(await freePortBlock(MAX_WORKER_COPIES));
  return loadStackConfig({
    API_PROCESSES: '1',
    WORKER_PROCESSES: '1',
    ...process.env,
    LOG_LEVEL: 'warn',
    ...ports,
    DATA_DIR: dataDir,
    ...overrides,
  });
}
