import { readFileSync } from 'node:fs';
import path from 'node:path';

import { parse } from 'yaml';

import { apiOnlyVariableNames, configVariableNames, loadConfig } from '../../platform/config';

/**
 * No Docker engine runs here, so the compose file is checked as data: every
 * variable the service reads is set for both processes (the KYC keys for the
 * API only), and every service the API and worker address exists, is waited
 * for, and has a health check.
 */
interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
}

// Compose honours YAML merge keys (`<<: *service-env`).
const compose = parse(readFileSync(path.resolve(__dirname, '../../docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const { services } = compose;

function hostOf(address: string): string {
  return address.includes('://') ? new URL(address).hostname : address.split(':')[0]!;
}

describe('docker-compose.yml', () => {
  it.each(['api', 'worker'])('when %s starts, then every configuration variable it needs is set', (name) => {
    const environment = services[name]!.environment ?? {};
    const needed = configVariableNames.filter((variable) => name === 'api' || !apiOnlyVariableNames.includes(variable));
    const missing = needed.filter((variable) => !(variable in environment) || environment[variable] === '');
    expect(missing).toEqual([]);
  });

  it('the KYC key is required, given to the API, and kept from the worker, which never opens KYC content', () => {
    expect(services.api!.environment!.KYC_ENCRYPTION_KEY).toMatch(/^\$\{KYC_ENCRYPTION_KEY:\?/);
    expect(services.api!.environment!.WEBHOOK_SECRET_KEY).toMatch(/^\$\{WEBHOOK_SECRET_KEY:\?/);
    for (const variable of apiOnlyVariableNames) expect(services.worker!.environment).not.toHaveProperty(variable);
  });

  it.each(['api', 'worker'])('%s is built from this repository and runs its compiled entry point', (name) => {
    expect(services[name]!.build).toBe('.');
    expect(services[name]!.command?.join(' ')).toBe(name === 'api' ? 'node dist/api/server.js' : 'node dist/worker/main.js');
  });

  it.each(['api', 'worker'])('%s waits for every service it addresses to be healthy', (name) => {
    const environment = services[name]!.environment!;
    const needed = ['MONGODB_URI', 'TEMPORAL_ADDRESS', 'SMTP_URL', 'VALIDATOR_URL', 'ACCESS_POINT_URL'].map((variable) => hostOf(environment[variable]!));
    for (const host of needed) {
      expect(services).toHaveProperty(host);
      expect(services[host]!.healthcheck?.test.length).toBeGreaterThan(0);
      expect(services[name]!.depends_on?.[host]).toEqual({ condition: 'service_healthy' });
    }
  });

  it('runs a real MongoDB, a Temporal server with its database, and the Temporal Web UI', () => {
    expect(services.mongodb?.image).toMatch(/^mongo:/);
    expect(services.temporal?.image).toMatch(/^temporalio\//);
    expect(services.temporal?.depends_on).toHaveProperty('temporal-db');
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    for (const service of Object.values(services)) expect(service.healthcheck).toBeDefined();
  });

  it('publishes operator pages and the services behind the API on this machine only; only the API (our SMP in it) and the access point\u2019s AS4 port face the network', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      ((service as { ports?: string[] }).ports ?? []).map((mapping) => [name, mapping] as const),
    );
    for (const [name, mapping] of published) {
      if (name === 'api' || (name === 'access-point' && mapping === '8091:8091')) continue;
      expect(`${name} ${mapping}`).toMatch(new RegExp(`^${name} 127\\.0\\.0\\.1:`));
    }
    expect(published.filter(([name]) => name === 'temporal-ui' || name === 'smtp').length).toBeGreaterThan(0);
  });

  it('the API, whose port is published directly, trusts no proxy to name the client unless the operator sets TRUSTED_PROXIES', () => {
    const setting = services.api!.environment!.TRUSTED_PROXIES!;
    expect(setting).toBe('${TRUSTED_PROXIES:-none}');
    const fallback = /^\$\{TRUSTED_PROXIES:-(.*)\}$/.exec(setting)![1]!;
    expect(loadConfig({ TRUSTED_PROXIES: fallback }).TRUSTED_PROXIES).toEqual([]);
    expect(services.api!.ports).toEqual(['3000:3000', '3002:3002']);
  });

  it('runs the official validator built from validator/ by Maven, on the port VALIDATOR_URL names', () => {
    expect(services.validator?.build).toBe('./validator');
    const dockerfile = readFileSync(path.resolve(__dirname, '../../validator/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN mvn -q -B package/);
    const port = new URL(services.api!.environment!.VALIDATOR_URL!).port;
    expect(dockerfile).toContain(`"--port", "${port}"`);
  });

  it('runs our access point built from access-point/ by Maven, on the port ACCESS_POINT_URL names, with the operator-supplied certificate', () => {
    const accessPoint = services['access-point'] as { build?: string; environment?: Record<string, string>; volumes?: string[] };
    expect(accessPoint.build).toBe('./access-point');
    const dockerfile = readFileSync(path.resolve(__dirname, '../../access-point/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN mvn -q -B package/);
    expect(dockerfile).toContain(`AP_PORT=${new URL(services.api!.environment!.ACCESS_POINT_URL!).port}`);
    expect(accessPoint.environment?.AP_KEYSTORE_PASSWORD).toMatch(/^\$\{PEPPOL_AP_KEYSTORE_PASSWORD:\?/);
    expect(accessPoint.volumes).toEqual(['${PEPPOL_AP_DIR:-./peppol-ap}:/run/peppol:ro', '${PEPPOL_SMP_DIR:-./peppol-smp}:/run/peppol-smp:ro']);
  });

  it('receives: our access point hands AS4 messages to the API intake with the shared token, and the API serves our SMP, which the access point registers in the SML', () => {
    const accessPoint = services['access-point']!;
    const api = services.api!.environment!;
    expect(accessPoint.environment?.AP_INBOUND_URL).toBe(`http://api:${api.INBOUND_PORT}/inbound`);
    expect(accessPoint.environment?.AP_INBOUND_TOKEN).toMatch(/^\$\{INBOUND_TOKEN:\?/);
    expect(api.INBOUND_TOKEN).toMatch(/^\$\{INBOUND_TOKEN:\?/);
    expect(services.api!.ports).not.toContain(`${api.INBOUND_PORT}:${api.INBOUND_PORT}`);
    expect(accessPoint.environment?.SML_SMP_URL).toMatch(/^\$\{SMP_PUBLIC_URL:\?/);
    expect(api.SMP_PUBLIC_URL).toMatch(/^\$\{SMP_PUBLIC_URL:\?/);
    expect(services.api!.ports).toContain(`${api.SMP_PORT}:${api.SMP_PORT}`);
  });

  it('the Dockerfile builds the entry points compose runs', () => {
    const dockerfile = readFileSync(path.resolve(__dirname, '../../Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
  });
});
