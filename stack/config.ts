import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { z } from 'zod';

import { KYC_KEY_FILE } from './keys';
import {
  configVariableNames,
  duration,
  loadConfig,
  parseEnvironment,
  port,
  toEnvironment,
  type Config,
} from '../platform/config';

/**
 * Variables of the embedded stack only (`npm start`, the tests, the
 * benchmarks): where it keeps its state and which ports its components use.
 * The service itself never reads these.
 */
const stackShape = {
  DATA_DIR: z
    .string()
    .optional()
    .describe(
      'Where the embedded stack keeps its state. Default: ./data for the development shape, ./data-production for the production shape ' +
        '(each shape its own databases, mail sink and keys: a key made on one is unknown to the other)',
    ),
  KEYS_DIR: z
    .string()
    .optional()
    .describe(
      'Where the embedded stack keeps the keys it makes when WEBHOOK_SECRET_KEY, KYC_ENCRYPTION_KEY or INBOUND_TOKEN is not set; outside DATA_DIR. ' +
        'Default: a directory of its own for each DATA_DIR under ~/.config/einvoice/keys/ (named by a digest of its path), so two stacks never share keys',
    ),
  TOOLS_DIR: z
    .string()
    .default(path.join(os.homedir(), '.cache', 'einvoice-tools'))
    .describe('Per-machine cache of the pinned Temporal CLI, FerretDB, official validator and access point builds'),
  STACK_SHAPE: z
    .enum(['development', 'production'])
    .default('development')
    .describe(
      'Which engines the embedded stack runs: development (the Temporal CLI dev server, FerretDB on SQLite, one API and one worker process) ' +
        "or production (PostgreSQL, the Temporal server on it with advanced visibility, FerretDB on it, two API and two worker processes behind a front proxy: compose's shape)",
    ),
  TEMPORAL_PORT: port(7233).describe('gRPC port of the embedded Temporal server (its frontend)'),
  TEMPORAL_UI_PORT: port(8233).describe('Web UI port of the embedded Temporal server'),
  TEMPORAL_INTERNAL_PORT: port(7234).describe(
    "Production shape: the first of eight consecutive ports for the Temporal server's other services (history, matching, worker) and their membership",
  ),
  TEMPORAL_HISTORY_SHARDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(512)
    .describe(
      "Production shape: the Temporal server's history shards, fixed when its database is made (compose's TEMPORAL_HISTORY_SHARDS)",
    ),
  API_BEHIND_FRONT_PORT: port(3100).describe(
    'Production shape: where the API processes listen, behind the front proxy on PORT',
  ),
  POSTGRES_PORT: port(5432).describe('Production shape: port of the embedded PostgreSQL (Temporal and FerretDB on it)'),
  FERRETDB_PORT: port(27017).describe('Port of the embedded FerretDB'),
  SMTP_PORT: port(1025).describe('SMTP port of the embedded mail sink'),
  MAIL_UI_PORT: port(1080).describe('Inbox page of the embedded mail sink'),
  VALIDATOR_PORT: port(8081).describe('Port of the embedded official validator'),
  VALIDATOR_LANE_PERMITS: z
    .string()
    .regex(/^(\s*[a-z]+\s*=\s*\d+\s*(,|$))*$/, 'lane=count pairs separated by commas, e.g. send=2,view=1')
    .default('')
    .describe(
      "The embedded validator's permits per lane (send=2,interactive=1,…); a lane not named keeps its default (send one per core, the others half as many, at least one)",
    ),
  VALIDATOR_RECYCLE_AFTER: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe('Jobs an embedded validator worker process runs before a fresh one replaces it'),
  VALIDATOR_WORKER_HEAP: z
    .string()
    .regex(/^\d+[mg]$/, 'a Java heap size, e.g. 512m')
    .default('512m')
    .describe("Each embedded validator worker process's Java heap ceiling (-Xmx)"),
  SML_DNS_PORT: port(8053).describe('DNS port (UDP) of the local Peppol network stand-in: its SML'),
  STANDIN_SML_PORT: port(8087).describe(
    "HTTPS port of the local Peppol network stand-in's SML management interface (client certificate required)",
  ),
  STANDIN_SMP_PORT: port(8088).describe('HTTP port of the local Peppol network stand-in: its SMP'),
  SMP_PORT: port(8086).describe(
    'HTTP port of our SMP; the SML registration names http://127.0.0.1:<SMP_PORT> as its address',
  ),
  PEPPOL_RECEIVER_PORT: port(8090).describe(
    "HTTP port of the local Peppol network stand-in's receiving access point (AS4 at /as4, what arrived at /inbox)",
  ),
  OXALIS_PORT: port(8092).describe(
    "HTTP port of the local Peppol network stand-in's independent access point, Oxalis (AS4 at /as4)",
  ),
  STANDIN_INVOICE_RESPONSE: z
    .enum(['AB', 'IP', 'UQ', 'CA', 'RE', 'AP', 'PD', 'off'])
    .default('AB')
    .describe(
      "The Invoice Response the local Peppol network stand-in's access point sends back for every invoice and credit note it receives (off: none)",
    ),
  ACCESS_POINT_PORT: port(8089).describe('Port of the embedded access point (ours): its control API (POST /send)'),
  ACCESS_POINT_AS4_PORT: port(8091).describe(
    'Port where the embedded access point (ours) receives AS4 (at /as4), on 127.0.0.1',
  ),
  AS4_SEND_TIMEOUT: duration('30s')
    .refine(
      (ms) => ms >= 1 && ms <= 30_000,
      'expected at most 30s: the access point answers within one delivery attempt',
    )
    .describe("How long the embedded access point waits for a receiving access point's answer to one AS4 message"),
};

export type StackConfig = Config &
  Omit<z.output<z.ZodObject<typeof stackShape>>, 'DATA_DIR' | 'KEYS_DIR'> & { DATA_DIR: string; KEYS_DIR: string };

/** Each shape's own data directory: their databases differ (SQLite, PostgreSQL), so sharing one shared only the mail sink and the keys. */
const DEFAULT_DATA_DIRS = { development: './data', production: './data-production' } as const;

export function loadStackConfig(env: NodeJS.ProcessEnv = process.env): StackConfig {
  const stack = parseEnvironment(stackShape, env);
  // Compose's shape runs several API and worker processes: two of each unless told otherwise.
  const processes =
    stack.STACK_SHAPE === 'production'
      ? { API_PROCESSES: env.API_PROCESSES || '2', WORKER_PROCESSES: env.WORKER_PROCESSES || '2' }
      : {};
  // The embedded stack serves this machine, so a proxy in front of its API runs here too
  // (and the tests give each client an address of its own through X-Forwarded-For).
  const service = loadConfig({ ...env, ...processes, TRUSTED_PROXIES: env.TRUSTED_PROXIES || 'loopback' });
  const dataDir = path.resolve(stack.DATA_DIR ?? DEFAULT_DATA_DIRS[stack.STACK_SHAPE]);
  return { ...service, ...stack, DATA_DIR: dataDir, KEYS_DIR: path.resolve(stack.KEYS_DIR ?? defaultKeysDir(dataDir)) };
}

/**
 * Keys of their own for each data directory: the stack's intake token and sealing keys are never another
 * stack's. A data directory that holds data from before (when every stack shared the keys directory) keeps
 * using the shared keys that sealed it.
 */
function defaultKeysDir(dataDir: string): string {
  const shared = path.join(os.homedir(), '.config', 'einvoice', 'keys');
  const own = path.join(shared, createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
  const dataFromBefore = existsSync(path.join(dataDir, 'ferretdb')) && existsSync(path.join(shared, KYC_KEY_FILE));
  return !existsSync(own) && dataFromBefore ? shared : own;
}

/** The service's variables of a stack configuration, for the API and worker processes it starts. */
export function serviceEnvironment(config: StackConfig): Record<string, string> {
  return toEnvironment(Object.fromEntries(configVariableNames.map((name) => [name, config[name]])));
}
