import { isIP } from 'node:net';

import { z } from 'zod';

import { eurosToUnits } from '../domain/credits';
import { peppolIdProblem } from '../domain/peppol/ids';
import { CNAME_SMP_PORT, PRODUCTION_SML_ZONE, SML_LOOKUPS } from '../domain/peppol/sml';
import { defaultProcessCount } from './process-copies';
import { defaultThreadCount } from './thread-pool';
import { RESOURCE_NAMES, type Resource } from '../workflows/task-queues';

/**
 * Every environment variable the API and the worker read, in one place,
 * validated once at start-up. A bad value stops the process with the
 * variable's name; its value is shown only when it cannot hold a secret.
 * The embedded stack's own variables (data directory, ports) live in
 * stack/config.ts: a deployment never sets them.
 */

export const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** An empty variable means "not set", as it does in shells and compose files. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
const optionalUrl = optional(z.url());

/**
 * A MongoDB connection string: `mongodb://` with one host or several (a
 * replica set's members, which a WHATWG URL cannot hold), or `mongodb+srv://`.
 */
const mongodbUri = optional(
  z.string().refine((value) => {
    const match = /^mongodb(\+srv)?:\/\/(?:[^@/]+@)?([^/?#@]+)(?:\/[^?#]*)?(?:\?[^#]*)?$/.exec(value);
    if (!match) return false;
    const hosts = match[2]!.split(',');
    return (
      (match[1] ? hosts.length === 1 : true) &&
      hosts.every((host) => /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host))
    );
  }, 'expected a MongoDB connection string such as mongodb://host:27017/einvoice or mongodb://a:27017,b:27017,c:27017/einvoice?replicaSet=rs0'),
);
/**
 * `localhost` too, so that a program that cannot send a Host of its own (Node's fetch: the SDK, the MCP server)
 * reaches the live environment of a local run at http://localhost:PORT, beside the sandbox at 127.0.0.1.
 */
const hostList = z
  .string()
  .default('live.localhost,localhost')
  .transform((raw) =>
    raw
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host.length > 0),
  );

/** A duration such as `500ms`, `30s`, `5m` or `1h` (a bare number is milliseconds), in milliseconds. */
export const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: 'expected a duration such as 500ms, 30s, 5m, 1h or 5d' });
        return z.NEVER;
      }
      return (
        Number(match[1]) *
        { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(match[2] ?? 'ms') as 'ms' | 's' | 'm' | 'h' | 'd']
      );
    });

/** An amount of euros such as `0.10` (at most 4 decimals), kept as its decimal string. */
const euros = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((value) => {
      try {
        eurosToUnits(value);
        return true;
      } catch {
        return false;
      }
    }, 'expected an amount of euros such as 0.10 (at most 4 decimals)');

/** A DNS zone such as `participant.sml.prod.tech.peppol.org`, lower-cased and without a trailing dot. */
const dnsZone = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) => value.trim().toLowerCase().replace(/\.$/, ''))
    .refine(
      (value) => /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(value),
      'expected a DNS zone such as participant.sml.prod.tech.peppol.org',
    );

/** What node:dns accepts as a server: an IP address, with a port after an IPv4 address or a bracketed IPv6 one. */
function isResolverAddress(value: string): boolean {
  if (isIP(value) !== 0) return true;
  const { v6, v4, port } = /^(?:\[(?<v6>[^\]]+)\]|(?<v4>[\d.]+)):(?<port>\d{1,5})$/.exec(value)?.groups ?? {};
  return (v6 ? isIP(v6) === 6 : v4 !== undefined && isIP(v4) === 4) && Number(port) >= 1 && Number(port) <= 65535;
}

/** Express's names for the loopback, link-local and unique-local (private) networks. */
const PROXY_NETWORK_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One trusted proxy: an IP address, a CIDR range such as 10.0.0.0/8, or one of Express's network names. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NETWORK_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * The proxies whose X-Forwarded-For names the client (for per-address limits):
 * `none`, or a comma list of addresses, CIDR ranges and Express's network
 * names. None by default: a client that reaches the API directly, or through
 * a proxy that does not overwrite the header (Docker's userland proxy), would
 * otherwise pick its own address.
 */
const trustedProxies = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .default('none')
    .transform((raw, ctx) => {
      const entries = raw
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0);
      if (entries.length === 1 && entries[0] === 'none') return [];
      if (entries.length === 0 || !entries.every(isProxyEntry)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'expected none, or a comma list of IP addresses, CIDR ranges (10.0.0.0/8) and loopback, linklocal, uniquelocal',
        });
        return z.NEVER;
      }
      return entries;
    }),
);

/** How many copies of a process run (platform/process-copies.ts); empty, as a compose file passes an unset one, is the default. */
const processCount = z.preprocess((value) => (value === '' ? undefined : value), positiveInt(defaultProcessCount()));

/** Task queues by resource name (workflows/task-queues.ts), comma-separated; unset or empty: all of them. */
const taskQueueList = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .default(RESOURCE_NAMES.join(','))
    .transform((value, ctx) => {
      const names = value.split(',').map((name) => name.trim());
      const unknown = names.filter((name) => !(RESOURCE_NAMES as string[]).includes(name));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown task queue ${unknown.map((name) => JSON.stringify(name)).join(', ')}; expected some of ${RESOURCE_NAMES.join(', ')}`,
        });
        return z.NEVER;
      }
      return [...new Set(names)] as Resource[];
    }),
);

/** A key of domain/secret-box.ts: 32 random bytes, base64. */
const sealingKey = optional(
  z.string().refine((value) => Buffer.from(value, 'base64').length === 32, 'expected 32 bytes, base64-encoded'),
);

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(fallback)
    .transform((value) => value === 'true');

/** OpenPeppol's participant for Peppol reporting (peppol-reporting's CPeppolReporting.OPENPEPPOL_PARTICIPANT_ID). */
const OPENPEPPOL_REPORTING_RECEIVER = '9925:be0848934496';
/** Participant values are case-insensitive (OpenPeppol writes its own in lower case; the checks expect BE in upper case). */
const participantId = z
  .string()
  .refine(
    (value) => [value, value.toUpperCase()].some((form) => peppolIdProblem(form) === undefined),
    'expected a Peppol participant id such as 9925:be0848934496',
  );

const serviceConfigShape = {
  PORT: port(3000).describe('HTTP port of the API'),
  BIND_HOST: z.string().default('127.0.0.1').describe('Interface the API listens on'),
  MONGODB_URI: mongodbUri.describe(
    "MongoDB connection string; a replica set's members comma-separated with replicaSet=",
  ),
  TEMPORAL_ADDRESS: optional(z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port')).describe(
    'Temporal frontend host:port',
  ),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  SMTP_URL: optionalUrl.describe('SMTP server for sandbox deliveries'),
  VALIDATOR_URL: optionalUrl.describe('The official Peppol validator service (validator/), e.g. http://validator:8081'),
  ACCESS_POINT_URL: optionalUrl.describe(
    'Our Peppol AS4 access point (access-point/), which sends live documents, e.g. http://access-point:8089',
  ),
  INBOUND_PORT: port(3001).describe(
    "Port of the API process's intake for messages our access point received (POST /inbound); keep it unreachable from outside",
  ),
  INBOUND_BIND: z
    .string()
    .default('127.0.0.1')
    .describe('Interface the intake listens on: only our access point calls it (in compose, the internal network)'),
  INBOUND_TOKEN: optional(z.string().min(32, 'expected at least 32 characters')).describe(
    'Bearer token our access point presents to the intake (its AP_INBOUND_TOKEN); the embedded stack makes one',
  ),
  SMP_PORT: optional(z.coerce.number().int().min(1).max(65535)).describe(
    'Port of our SMP (Peppol SMP 1.x, read-only), served by the API process from the companies registered as receivers; unset: not served',
  ),
  SMP_PUBLIC_URL: optionalUrl.describe(
    "Our SMP's public URL, as the SML publishes it for our participants (https:// in production)",
  ),
  SMP_SIGNING_CERTIFICATE: optional(z.string()).describe(
    'PEM file of the SMP certificate (issued by the Peppol SMP CA) that signs its service metadata',
  ),
  SMP_SIGNING_KEY: optional(z.string()).describe('PEM file (unencrypted PKCS#8) of its private key'),
  ACCESS_POINT_ENDPOINT_URL: optionalUrl.describe(
    "Our access point's public AS4 URL (its AP_ENDPOINT_URL), which our SMP publishes",
  ),
  ACCESS_POINT_CERTIFICATE: optional(z.string()).describe(
    'PEM file of our access point certificate, which our SMP publishes',
  ),
  PEPPOL_SEAT_ID: optional(
    z.string().regex(/^[A-Z]{3}[0-9]{6}$/i, 'expected a Peppol seat id such as PBE000001'),
  ).describe(
    "Our access point's seat id (its certificate's CN): its service provider id (0242:<SPID>) receives Message Level Status, so our SMP publishes it and our envelopes name it in MLS_TO; unset, neither",
  ),
  PEPPOL_MLS_TYPE: z
    .enum(['ALWAYS_SEND', 'FAILURE_ONLY'])
    .default('ALWAYS_SEND')
    .describe(
      'The Message Level Status our envelopes ask for (MLS_TYPE): ALWAYS_SEND also brings the positive status a document shows as mls, FAILURE_ONLY (the network default) only failures',
    ),
  LIVE_DOCUMENT_PRICE: euros('0.10').describe(
    'What one live document costs, in EUR (a workspace may have its own price)',
  ),
  CREDITS_LOW_THRESHOLD: euros('5.00').describe(
    'Below this balance (EUR) responses carry X-Credits-Remaining and credits.low is raised once per crossing',
  ),
  UBL_VALIDATIONS_PER_IP: positiveInt(100).describe(
    'Public UBL validations (POST /v1/ubl/validate) per IP address per hour',
  ),
  LOOKUP_LIMIT: positiveInt(100).describe(
    'Public participant lookups per IP address per hour, for each of the two lookup endpoints',
  ),
  PEPPOL_SML_ZONE: dnsZone(PRODUCTION_SML_ZONE).describe('DNS zone of the Peppol SML that participant lookups query'),
  PEPPOL_SML_LOOKUP: z
    .enum(SML_LOOKUPS)
    .default('naptr')
    .describe(
      "How participant lookups ask the SML: naptr, the U-NAPTR record at the Base32 SHA-256 of the participant (Peppol's scheme), or cname, the legacy BusDox scheme (the name B-<MD5 of the participant>, the SMP at http://<that name>) that OpenPeppol retired for its production network and older or private networks still publish",
    ),
  PEPPOL_SML_CNAME_SMP_PORT: port(CNAME_SMP_PORT).describe(
    'Port of the SMP that the cname lookup asks; for local stand-in networks only, the legacy scheme fixes port 80',
  ),
  PEPPOL_DNS_SERVER: optional(
    z
      .string()
      .refine(
        isResolverAddress,
        'expected an IP address with an optional port: 192.0.2.53, 192.0.2.53:53 or [2001:db8::53]:53',
      ),
  ).describe('DNS server for participant lookups; default the system resolver'),
  PEPPOL_ALLOW_HTTP_SMP: flag('false').describe(
    'Whether an SML may name an http SMP; on Peppol SMPs are https only since 2026-02-01 (SMP 1.4.0), so only for a local or private network',
  ),
  PEPPOL_ALLOW_PRIVATE_SMP: flag('false').describe(
    'Let participant lookups and live delivery ask SMPs at loopback and private addresses (the embedded stack turns it on for its local Peppol network)',
  ),
  PEPPOL_LOOKUP_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(300)
    .describe(
      "The longest a sending worker keeps a receiver's lookup (the SML's NAPTR answer for at most its DNS TTL, the verified SMP answer); 0 keeps none",
    ),
  PEPPOL_LOOKUP_CACHE_ENTRIES: positiveInt(1000).describe(
    'How many lookup answers (SML and SMP, each one) a sending worker keeps at most',
  ),
  PEPPOL_SMP_CA: optional(z.string()).describe(
    'PEM file of the CAs that issue SMP certificates (Peppol: the SMP CA): service metadata counts only when signed by a certificate one of them issued; unset, none counts',
  ),
  PEPPOL_AP_CA: optional(z.string()).describe(
    'PEM file of the CAs that issue access point certificates (Peppol: the AP CA): an endpoint counts only when its certificate one of them issued; unset, none counts',
  ),
  PEPPOL_REPORTING_RECEIVER: participantId
    .default(OPENPEPPOL_REPORTING_RECEIVER)
    .describe(
      "Participant the monthly Peppol reports (TSR, EUSR) are sent to; OpenPeppol's in production (the embedded stack: the same id on its local network)",
    ),
  PEPPOL_REPORTING_SENDER: optional(participantId).describe(
    "Our participant id as the reports' sender; default 0242 and our seat's number (Peppol SPIS: PBE000001 is 0242:000001)",
  ),
  PEPPOL_REPORTING_COUNTRY: optional(z.string().regex(/^[A-Z]{2}$/, 'expected a country code such as BE')).describe(
    "Our country (C1) in the reports' envelope; default the one in our seat id (PBE000001: BE)",
  ),
  TRUSTED_PROXIES: trustedProxies.describe(
    'Proxies in front of the API whose X-Forwarded-For gives the client address; none by default',
  ),
  LIVE_HOSTS: hostList.describe('Hosts served as the live environment; all others are sandbox'),
  PUBLIC_SANDBOX_URL: optionalUrl.describe('Public origin of the sandbox host; default http://127.0.0.1:PORT'),
  PUBLIC_LIVE_URL: optionalUrl.describe('Public origin of the live host; default http://live.localhost:PORT'),
  MAIL_FROM: z
    .string()
    .min(3)
    .default('E-invoice sandbox <sandbox@einvoice.localhost>')
    .describe('Sender of sandbox delivery emails'),
  OPERATOR_EMAIL: z
    .string()
    .min(3)
    .default('Operators <operators@einvoice.localhost>')
    .describe('Where the worker reminds the operators of KYC reviews still waiting (every day a review waits)'),
  DELIVERY_WINDOW_SECONDS: positiveInt(3600).describe(
    'How long a sandbox delivery (email) is retried before the document fails',
  ),
  LIVE_DELIVERY_WINDOW_SECONDS: positiveInt(3 * 24 * 3600).describe(
    "How long a live delivery (Peppol AS4) and an Invoice Response are retried before they fail: a receiver's access point away for a weekend's maintenance still gets the document",
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl.describe(
    'OTLP/HTTP collector the API and worker export traces to (the OpenTelemetry variable: its exporter reads it, and the OTEL_EXPORTER_OTLP_* beside it); unset: no tracing',
  ),
  MAX_BODY_BYTES: positiveInt(16 * 1024 * 1024).describe('Largest accepted request body'),
  API_PROCESSES: processCount.describe(
    'API processes, sharing its ports (node:cluster); one that dies is started again (default: one per core, at most 8; one on two cores or fewer)',
  ),
  WORKER_PROCESSES: processCount.describe(
    'Worker processes, each a Temporal worker polling the same task queue; one that dies is started again (default as API_PROCESSES)',
  ),
  API_WORKER_THREADS: optional(z.coerce.number().int().positive()).describe(
    'Worker threads of each API process that read and convert documents and measure XML (default: the cores but one, shared among the API processes, at least one each)',
  ),
  RATE_LIMIT_SANDBOX: positiveInt(60).describe('Requests per sandbox key per minute'),
  RATE_LIMIT_LIVE: positiveInt(120).describe('Requests per live key per minute'),
  SIGNUP_LIMIT: positiveInt(10).describe('Signups per IP address per hour'),
  SIGN_IN_LINKS_PER_ADDRESS: positiveInt(5).describe('Web app sign-in links emailed per address per hour'),
  SIGN_IN_LIMIT: positiveInt(30).describe(
    'Web app sign-in requests (links asked for and spent) per IP address per hour',
  ),
  AUTH_FAILURE_LIMIT: positiveInt(30).describe(
    'Failed authentications (missing or invalid key) per client address per minute; past it, 429 instead of 401',
  ),
  SANDBOX_RECIPIENTS_PER_DAY: positiveInt(20).describe(
    "Distinct sandbox email recipients per account per UTC day, besides the account's own addresses",
  ),
  INVITES_BY_EMAIL_PER_DAY: positiveInt(50).describe('Members an account may add by email per UTC day'),
  STRICT_QUERY_SHAPES: flag('false').describe(
    'Refuse every database query that no declared index serves (the embedded stack and the tests turn it on)',
  ),
  WEBHOOK_SECRET_KEY: sealingKey.describe(
    'Key that encrypts webhook signing secrets at rest (32 bytes, base64); required by the API and the worker',
  ),
  KYC_ENCRYPTION_KEY: sealingKey.describe(
    'Key that encrypts KYC document content at rest (32 bytes, base64); required by the API and the ops CLI (the worker does not need it)',
  ),
  KYC_ENCRYPTION_KEY_PREVIOUS: sealingKey.describe(
    'The KYC key before a rotation: the ops CLI opens what it sealed and `kyc reseal` seals that again under KYC_ENCRYPTION_KEY',
  ),
  WEBHOOK_RETRY_INITIAL_INTERVAL: duration('30s').describe(
    'Wait before the second webhook delivery attempt; it doubles for each next one',
  ),
  WEBHOOK_DISABLE_AFTER: duration('5d').describe(
    'A webhook whose endpoint has answered no delivery successfully for this long is disabled, its pending deliveries failed (redeliverable), with a webhook.disabled event and an email to the workspace owners',
  ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag('false').describe(
    'Let webhooks reach loopback and private addresses (local development and tests only)',
  ),
  WORKFLOW_BUNDLE: optional(z.string()).describe(
    'Bundled workflow code; default workflow-bundle.js beside the compiled worker',
  ),
  WORKER_BUILD_ID: optional(
    z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected letters, digits, dot, dash or underscore (at most 64)'),
  ).describe(
    "The worker's build in its Temporal worker deployment `einvoice`: the workflows it starts stay on it (default: a hash of the workflow bundle, so a change of workflow code is a new build)",
  ),
  METRICS_BIND: z
    .string()
    .default('127.0.0.1')
    .refine((value) => isIP(value) !== 0, 'expected an IP address such as 127.0.0.1 or 0.0.0.0')
    .describe(
      "Interface the metrics listeners (API's, worker's, Temporal SDK's) listen on: an internal network only, never the public one",
    ),
  METRICS_PORT: port(9464).describe(
    "Port of the API's Prometheus metrics (GET /metrics), every API process's together",
  ),
  WORKER_TASK_QUEUES: taskQueueList.describe(
    `The task queues a worker process polls, by resource (${RESOURCE_NAMES.join(', ')}; docs/architecture.md, Task queues): a deployment may run a process per queue; every queue needs at least one process polling it`,
  ),
  VALIDATION_TASK_SLOTS: optional(z.coerce.number().int().positive()).describe(
    "Validations and renderings each worker process runs at once (default: the validator's `send` lane permits, shared among the WORKER_PROCESSES, at least one each)",
  ),
  AS4_TASK_SLOTS: positiveInt(8).describe(
    'AS4 sends each worker process hands our access point at once (its control API serves eight at a time)',
  ),
  EMAIL_TASK_SLOTS: positiveInt(4).describe(
    'Sandbox emails each worker process sends at once, each on an SMTP connection of its own',
  ),
  WEBHOOK_TASK_SLOTS: positiveInt(16).describe('Webhook requests each worker process has in flight at once'),
  WORKER_METRICS_PORT: port(9465).describe(
    "Port of the worker's Prometheus metrics (GET /metrics), every worker process's together",
  ),
  TEMPORAL_METRICS_PORT: port(9466).describe(
    "Port of the Temporal SDK's own worker metrics (GET /metrics) of the first worker process; each further copy the next port",
  ),
};

/** Variables whose value may carry credentials: named in errors, never printed. */
const SECRET_VARIABLES = new Set([
  'MONGODB_URI',
  'SMTP_URL',
  'INBOUND_TOKEN',
  'WEBHOOK_SECRET_KEY',
  'KYC_ENCRYPTION_KEY',
  'KYC_ENCRYPTION_KEY_PREVIOUS',
]);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the variables of `shape` from `env`; every problem is reported at once. */
export function parseEnvironment<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv): z.output<z.ZodObject<S>> {
  const names = Object.keys(shape);
  const parsed = z.object(shape).safeParse(Object.fromEntries(names.map((name) => [name, env[name]])));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return SECRET_VARIABLES.has(name)
      ? `${name}: ${issue.message}`
      : `${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

/** The inverse of parsing: variables that reproduce these values in a child process. */
export function toEnvironment(
  values: Record<string, string | number | boolean | string[] | undefined>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    env[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return env;
}

type ParsedServiceConfig = z.output<z.ZodObject<typeof serviceConfigShape>>;

export type Config = Omit<ParsedServiceConfig, 'PUBLIC_SANDBOX_URL' | 'PUBLIC_LIVE_URL' | 'API_WORKER_THREADS'> & {
  API_WORKER_THREADS: number;
  /** Origins used in links and headers the API returns; never taken from a request's Host header. */
  PUBLIC_SANDBOX_URL: string;
  PUBLIC_LIVE_URL: string;
};

/** Names of every variable the service reads; the deployment test checks they are all set. */
export const configVariableNames = Object.keys(serviceConfigShape) as (keyof ParsedServiceConfig)[];

/**
 * Variables the worker never needs: it does not touch KYC content (a deployment keeps those keys from it), read posted documents nor take inbound messages.
 * @internal
 */
export const apiOnlyVariableNames: (keyof ParsedServiceConfig)[] = [
  'KYC_ENCRYPTION_KEY',
  'KYC_ENCRYPTION_KEY_PREVIOUS',
  'API_PROCESSES',
  'API_WORKER_THREADS',
  'METRICS_PORT',
  'INBOUND_PORT',
  'INBOUND_BIND',
  'INBOUND_TOKEN',
  'SMP_PORT',
  'SMP_PUBLIC_URL',
  'SMP_SIGNING_CERTIFICATE',
  'SMP_SIGNING_KEY',
  'ACCESS_POINT_ENDPOINT_URL',
  'ACCESS_POINT_CERTIFICATE',
];

/**
 * Variables only the worker reads: the API has no use for them.
 * @internal
 */
export const workerOnlyVariableNames: (keyof ParsedServiceConfig)[] = [
  'WORKER_PROCESSES',
  'WORKER_METRICS_PORT',
  'TEMPORAL_METRICS_PORT',
  'WORKER_BUILD_ID',
  'WORKER_TASK_QUEUES',
  'VALIDATION_TASK_SLOTS',
  'AS4_TASK_SLOTS',
  'EMAIL_TASK_SLOTS',
  'WEBHOOK_TASK_SLOTS',
];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = parseEnvironment(serviceConfigShape, env);
  return {
    ...parsed,
    // Several API processes share the cores: each gets its part of the threads instead of one less than all of them.
    API_WORKER_THREADS:
      parsed.API_WORKER_THREADS ?? Math.max(1, Math.floor(defaultThreadCount() / parsed.API_PROCESSES)),
    PUBLIC_SANDBOX_URL: new URL(parsed.PUBLIC_SANDBOX_URL ?? `http://127.0.0.1:${parsed.PORT}`).origin,
    PUBLIC_LIVE_URL: new URL(parsed.PUBLIC_LIVE_URL ?? `http://live.localhost:${parsed.PORT}`).origin,
  };
}

export interface ServiceAddresses {
  mongodbUri: string;
  temporalAddress: string;
  smtpUrl: string;
  validatorUrl: string;
  webhookSecretKey: string;
  /** The worker's only: it sends live documents. */
  accessPointUrl?: string;
  /** The API's only: it seals the KYC documents it takes. */
  kycEncryptionKey?: string;
}

/**
 * The API and the worker talk to services by address and share the webhook
 * secrets key; the worker also hands live documents to our access point, and
 * the API alone seals KYC documents. `npm start` fills these in for the
 * embedded stack.
 */
export function requireServiceAddresses(config: Config, role: 'worker'): ServiceAddresses & { accessPointUrl: string };
export function requireServiceAddresses(config: Config, role: 'api'): ServiceAddresses & { kycEncryptionKey: string };
export function requireServiceAddresses(config: Config, role: 'api' | 'worker'): ServiceAddresses {
  const needed = [
    'MONGODB_URI',
    'TEMPORAL_ADDRESS',
    'SMTP_URL',
    'VALIDATOR_URL',
    ...(role === 'worker' ? (['ACCESS_POINT_URL'] as const) : []),
    'WEBHOOK_SECRET_KEY',
    ...(role === 'api' ? (['KYC_ENCRYPTION_KEY'] as const) : []),
  ] as const;
  const missing = needed.filter((name) => !config[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      `${missing.join(', ')} not set: run \`npm start\` to bring up the embedded stack, or point these variables at running services`,
    );
  }
  return {
    mongodbUri: config.MONGODB_URI!,
    temporalAddress: config.TEMPORAL_ADDRESS!,
    smtpUrl: config.SMTP_URL!,
    validatorUrl: config.VALIDATOR_URL!,
    webhookSecretKey: config.WEBHOOK_SECRET_KEY!,
    ...(role === 'worker' && { accessPointUrl: config.ACCESS_POINT_URL! }),
    ...(role === 'api' && { kycEncryptionKey: config.KYC_ENCRYPTION_KEY! }),
  };
}
