import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every environment variable the service reads, in one place, validated once at
 * start-up. A bad value stops the process with the variable's name in the message.
 */

const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** An empty variable means "not set", as it does in shells and compose files. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const optionalUrl = optional(z.url());
const hostList = z
  .string()
  .default('live.localhost')
  .transform((raw) =>
    raw
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host.length > 0),
  );

export const configSchema = z.object({
  PORT: port(3000).describe('HTTP port of the API'),
  BIND_HOST: z.string().default('127.0.0.1').describe('Interface the API listens on'),
  DATA_DIR: z.string().default('./data').describe('Where the embedded stack keeps its state'),
  TOOLS_DIR: z
    .string()
    .default(path.join(os.homedir(), '.cache', 'einvoice-tools'))
    .describe('Per-machine cache of the pinned Temporal CLI and FerretDB binaries'),
  MONGODB_URI: optionalUrl.describe('External MongoDB; when unset the embedded FerretDB is used'),
  TEMPORAL_ADDRESS: optional(z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port')).describe('External Temporal frontend; when unset the embedded dev server is used'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_PORT: port(7233).describe('gRPC port of the embedded Temporal dev server'),
  TEMPORAL_UI_PORT: port(8233).describe('Web UI port of the embedded Temporal dev server'),
  FERRETDB_PORT: port(27017).describe('Port of the embedded FerretDB'),
  SMTP_URL: optionalUrl.describe('External SMTP server; when unset the embedded mail sink is used'),
  SMTP_PORT: port(1025).describe('SMTP port of the embedded mail sink'),
  MAIL_UI_PORT: port(1080).describe('Inbox page of the embedded mail sink'),
  LIVE_HOSTS: hostList.describe('Hosts served as the live environment; all others are sandbox'),
  PUBLIC_SANDBOX_URL: optionalUrl.describe('Public origin of the sandbox host'),
  PUBLIC_LIVE_URL: optionalUrl.describe('Public origin of the live host'),
  MAIL_FROM: z.string().min(3).default('E-invoice sandbox <sandbox@einvoice.localhost>').describe('Sender of sandbox delivery emails'),
  DELIVERY_WINDOW_SECONDS: positiveInt(3600).describe('How long a delivery is retried before the document fails'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAX_BODY_BYTES: positiveInt(16 * 1024 * 1024).describe('Largest accepted request body'),
  RATE_LIMIT_SANDBOX: positiveInt(60).describe('Requests per sandbox key per minute'),
  RATE_LIMIT_LIVE: positiveInt(120).describe('Requests per live key per minute'),
  SIGNUP_LIMIT: positiveInt(10).describe('Signups per IP address per hour'),
  LOOKUP_LIMIT: positiveInt(100).describe('Participant lookups per IP address per hour'),
});

export type Config = z.infer<typeof configSchema>;

/** Names of every variable the service reads; the deployment test checks they are all set. */
export const configVariableNames = Object.keys(configSchema.shape) as (keyof Config)[];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw = Object.fromEntries(configVariableNames.map((name) => [name, env[name]]));
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return { ...parsed.data, DATA_DIR: path.resolve(parsed.data.DATA_DIR) };
}

/** The inverse of loadConfig: variables that reproduce this configuration in a child process. */
export function configToEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of configVariableNames) {
    const value = config[name];
    if (value === undefined) continue;
    env[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return env;
}

/** The API and the worker talk to services by address; `npm start` fills these in for the embedded stack. */
export function requireServiceAddresses(config: Config): { mongodbUri: string; temporalAddress: string; smtpUrl: string } {
  const missing = (['MONGODB_URI', 'TEMPORAL_ADDRESS', 'SMTP_URL'] as const).filter((name) => !config[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(', ')} not set: run \`npm start\` to bring up the embedded stack, or point these variables at running services`,
    );
  }
  return { mongodbUri: config.MONGODB_URI!, temporalAddress: config.TEMPORAL_ADDRESS!, smtpUrl: config.SMTP_URL! };
}
