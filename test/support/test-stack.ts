import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { loadConfig, type Config } from '../../platform/config';
import { freePort } from '../../stack/ports';

/**
 * Configuration for a stack of its own: a fresh data directory and free ports,
 * so test stacks never collide with `npm start` or with each other. Services
 * configured through MONGODB_URI, TEMPORAL_ADDRESS or SMTP_URL are used as they are.
 */
export async function isolatedStackConfig(overrides: Record<string, string> = {}): Promise<Config> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-test-'));
  const ports: Record<string, string> = {};
  for (const name of ['PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'FERRETDB_PORT', 'SMTP_PORT', 'MAIL_UI_PORT']) {
    ports[name] = String(await freePort());
  }
  return loadConfig({ ...process.env, LOG_LEVEL: 'warn', ...ports, DATA_DIR: dataDir, ...overrides });
}

/** What global setup tells the test files about the shared stack. */
export interface SharedStack {
  apiUrl: string;
  mongodbUri: string;
  temporalAddress: string;
  smtpUrl: string;
  inboxUrl: string;
  namespace: string;
  maxBodyBytes: number;
  rateLimitSandbox: number;
  rateLimitLive: number;
  signupLimit: number;
}

const SHARED_STACK_VARIABLE = 'EINVOICE_TEST_STACK';

export function publishSharedStack(stack: SharedStack): void {
  process.env[SHARED_STACK_VARIABLE] = JSON.stringify(stack);
}

export function sharedStack(): SharedStack {
  const published = process.env[SHARED_STACK_VARIABLE];
  if (!published) throw new Error('the shared test stack is not running: run the tests with `npm test`');
  return JSON.parse(published) as SharedStack;
}
