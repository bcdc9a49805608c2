import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

/** docker-compose.yml read as data (no Docker engine runs here), for the checks of the compose file and of the production shape. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  expose?: string[];
  restart?: string;
  container_name?: string;
  volumes?: string[];
  networks?: { default?: { ipv4_address?: string } };
}

// Compose honours YAML merge keys (`<<: *service-env`).
export const compose = parse(readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8'), {
  merge: true,
}) as {
  services: Record<string, ComposeService>;
  networks?: { default?: { ipam?: { config?: { subnet: string }[] } } };
};
export const { services } = compose;

/** The hosts an address names: a MongoDB connection string may list several (a replica set's members). */
export function hostsOf(address: string): string[] {
  if (address.startsWith('mongodb://'))
    return /^mongodb:\/\/([^/?]+)/
      .exec(address)![1]!
      .split(',')
      .map((member) => member.split(':')[0]!);
  return [address.includes('://') ? new URL(address).hostname : address.split(':')[0]!];
}

/** Compose's interpolation of `${NAME:-default}` and `${NAME:?message}`: the default, or `required(NAME)` for a value the operator must give. */
export function interpolate(value: string, required: (name: string) => string): string {
  return value.replace(
    /\$\{(\w+)(?::([-?])((?:[^{}]|\$\{[^}]*\})*))?\}/g,
    (_, name: string, kind?: string, rest = '') => (kind === '-' ? interpolate(rest, required) : required(name)),
  );
}

/** Values of the right shape for what an operator must set. */
const SAMPLE_SECRET = Buffer.alloc(32, 7).toString('base64');
export const operatorValue = (name: string) =>
  ({
    PEPPOL_SEAT_ID: 'PBE000001',
    WEBHOOK_SECRET_KEY: SAMPLE_SECRET,
    KYC_ENCRYPTION_KEY: SAMPLE_SECRET,
    INBOUND_TOKEN: 'x'.repeat(40),
    SMP_PUBLIC_URL: 'https://smp.example.com',
    ACCESS_POINT_ENDPOINT_URL: 'https://ap.example.com/as4',
  })[name] ?? `unexpected required variable ${name}`;
