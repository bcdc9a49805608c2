import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  apiOnlyVariableNames,
  configVariableNames,
  loadConfig,
  requireServiceAddresses,
  workerOnlyVariableNames,
} from '../../platform/config';
import { defaultProcessCount } from '../../platform/process-copies';
import { accessPointTracing } from '../../stack/peppol-access-points';
import { OPENTELEMETRY_JAVA_AGENT } from '../../stack/tools';
import { compose, hostsOf, interpolate, operatorValue, services } from '../support/compose';

/**
 * No Docker engine (nor the compose plugin) runs here, so the compose file is
 * checked as data: every variable the service reads is set for both processes
 * (the API's and the worker's own to each only), every one set is one the code
 * reads, and the values parse as the service's configuration; every service
 * the API and worker address exists, is waited for, and has a health check;
 * every service restarts by itself; the API and the worker can be scaled.
 */
const nginxConfig = readFileSync(path.resolve(__dirname, '../../deploy/nginx.conf'), 'utf8');

describe('docker-compose.yml', () => {
  it.each(['api', 'worker'])('when %s starts, then every configuration variable it needs is set', (name) => {
    const environment = services[name]!.environment ?? {};
    const others = name === 'api' ? workerOnlyVariableNames : apiOnlyVariableNames;
    const needed = configVariableNames.filter((variable) => !others.includes(variable));
    const missing = needed.filter((variable) => !(variable in environment) || environment[variable] === '');
    expect(missing).toEqual([]);
  });

  it.each(['api', 'worker'])(
    '%s is given no variable the code does not read, nor one that is the other\u2019s only',
    (name) => {
      const others = name === 'api' ? workerOnlyVariableNames : apiOnlyVariableNames;
      const set = Object.keys(services[name]!.environment ?? {});
      expect(
        set.filter(
          (variable) =>
            !(configVariableNames as string[]).includes(variable) || (others as string[]).includes(variable),
        ),
      ).toEqual([]);
    },
  );

  it.each(['api', 'worker'])(
    'the values set for %s, with the operator\u2019s required ones filled in, are a valid configuration with every service address',
    (name) => {
      const environment = Object.fromEntries(
        Object.entries(services[name]!.environment!).map(([variable, value]) => [
          variable,
          interpolate(value, operatorValue),
        ]),
      );
      const config = loadConfig(environment);
      expect(() => requireServiceAddresses(config, name as 'api')).not.toThrow();
      expect(config.TRUSTED_PROXIES).toEqual([services.proxy!.networks!.default!.ipv4_address]);
    },
  );

  it('every service has a health check and restarts by itself', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(`${name}: ${service.healthcheck?.test.length ?? 0}`).not.toBe(`${name}: 0`);
      expect(`${name}: ${service.restart}`).toBe(`${name}: unless-stopped`);
    }
  });

  it.each(['api', 'worker'])('%s scales with --scale: no fixed container name and no published host port', (name) => {
    expect(services[name]!.container_name).toBeUndefined();
    expect(services[name]!.ports).toBeUndefined();
  });

  it('MONGODB_URI names a replica set whose members all exist, run mongod in that set with their own data, and are the members the set is initiated with', () => {
    const uri = services.api!.environment!.MONGODB_URI!;
    const replicaSet = /[?&]replicaSet=([^&]+)/.exec(uri)![1]!;
    const members = hostsOf(uri);
    expect(members.length).toBe(3);
    expect(/[?&]w=majority/.test(uri)).toBe(true);
    const volumes = new Set<string>();
    for (const member of members) {
      const service = services[member]!;
      expect(service.image).toMatch(/^mongo:/);
      expect(service.command).toEqual(['mongod', '--replSet', replicaSet, '--bind_ip_all']);
      for (const volume of service.volumes ?? []) volumes.add(volume.split(':')[0]!);
    }
    expect(volumes.size).toBe(members.length);
    // The initiating member's health check: initiates once, healthy when the set has a primary.
    const initiate = services[members[0]!]!.healthcheck!.test.join(' ');
    expect(initiate).toContain(`_id: '${replicaSet}'`);
    expect([...initiate.matchAll(/host: '([^':]+):27017'/g)].map((match) => match[1])).toEqual(members);
    expect(initiate).toMatch(/try \{ rs\.status\(\) \} catch/);
    for (const member of members.slice(1))
      expect(services[members[0]!]!.depends_on?.[member]).toEqual({ condition: 'service_healthy' });
  });

  it('the proxy publishes the API and our SMP and reaches every api container on the ports the API listens on, re-resolving them, with room for the largest body the API takes', () => {
    const api = loadConfig(
      Object.fromEntries(
        Object.entries(services.api!.environment!).map(([variable, value]) => [
          variable,
          interpolate(value, operatorValue),
        ]),
      ),
    );
    const proxy = services.proxy!;
    expect(proxy.image).toMatch(/^nginx:1\.(2[89]|[3-9]\d)/); // `resolve` in an upstream: nginx 1.27.3 and later
    expect(proxy.volumes).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    expect(proxy.ports).toEqual([`${api.PORT}:${api.PORT}`, `${api.SMP_PORT}:${api.SMP_PORT}`]);
    for (const port of [api.PORT, api.INBOUND_PORT, api.SMP_PORT]) {
      expect(nginxConfig).toContain(`server api:${port} resolve;`);
      expect(nginxConfig).toMatch(new RegExp(`listen ${port};`));
    }
    expect(nginxConfig).toMatch(/resolver 127\.0\.0\.11/);
    const publicLimit = /listen 3000;\s*client_max_body_size (\d+)m;/.exec(nginxConfig)![1]!;
    expect(Number(publicLimit) * 1024 * 1024).toBeGreaterThan(api.MAX_BODY_BYTES);
    // A client cannot pick the address its limits count against: the header is replaced, not appended to.
    expect(nginxConfig).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(proxy.depends_on?.api).toEqual({ condition: 'service_healthy' });
  });

  it('the KYC key is required, given to the API, and kept from the worker, which never opens KYC content', () => {
    expect(services.api!.environment!.KYC_ENCRYPTION_KEY).toMatch(/^\$\{KYC_ENCRYPTION_KEY:\?/);
    expect(services.api!.environment!.WEBHOOK_SECRET_KEY).toMatch(/^\$\{WEBHOOK_SECRET_KEY:\?/);
    for (const variable of apiOnlyVariableNames) expect(services.worker!.environment).not.toHaveProperty(variable);
  });

  it.each(['api', 'worker'])('%s is built from this repository and runs its compiled entry point', (name) => {
    expect(services[name]!.build).toBe('.');
    expect(services[name]!.command?.join(' ')).toBe(
      name === 'api' ? 'node dist/api/server.js' : 'node dist/worker/main.js',
    );
  });

  it.each(['api', 'worker'])(
    '%s waits for every service it addresses to be healthy (for MongoDB: the member whose health means the set has a primary)',
    (name) => {
      const environment = services[name]!.environment!;
      const needed = ['MONGODB_URI', 'TEMPORAL_ADDRESS', 'SMTP_URL', 'VALIDATOR_URL', 'ACCESS_POINT_URL'].map(
        (variable) => hostsOf(environment[variable]!)[0]!,
      );
      for (const host of needed) {
        expect(services).toHaveProperty(host);
        expect(services[host]!.healthcheck?.test.length).toBeGreaterThan(0);
        expect(services[name]!.depends_on?.[host]).toEqual({ condition: 'service_healthy' });
      }
    },
  );

  it('runs a real MongoDB, a Temporal server with its database, and the Temporal Web UI', () => {
    expect(services.temporal?.image).toMatch(/^temporalio\//);
    expect(services.temporal?.depends_on).toHaveProperty('temporal-db');
    expect(services['temporal-ui']?.image).toMatch(/^temporalio\/ui:/);
    for (const service of Object.values(services)) expect(service.healthcheck).toBeDefined();
  });

  it('publishes operator pages and the services behind the API on this machine only; only the proxy (the API and our SMP) and the access point\u2019s AS4 port face the network', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      ((service as { ports?: string[] }).ports ?? []).map((mapping) => [name, mapping] as const),
    );
    for (const [name, mapping] of published) {
      if (name === 'proxy' || (name === 'access-point' && mapping === '8091:8091')) continue;
      expect(`${name} ${mapping}`).toMatch(new RegExp(`^${name} 127\\.0\\.0\\.1:`));
    }
    expect(published.filter(([name]) => name === 'temporal-ui' || name === 'smtp').length).toBeGreaterThan(0);
  });

  it('the API, reached only through the proxy, trusts the proxy\u2019s fixed address on the compose network alone to name the client unless the operator sets TRUSTED_PROXIES', () => {
    const proxyAddress = services.proxy!.networks!.default!.ipv4_address!;
    expect(services.api!.environment!.TRUSTED_PROXIES).toBe(`\${TRUSTED_PROXIES:-${proxyAddress}}`);
    const subnet = compose.networks!.default!.ipam!.config![0]!.subnet;
    expect(subnet).toMatch(/\/24$/);
    expect(proxyAddress.split('.').slice(0, 3).join('.')).toBe(subnet.split('.').slice(0, 3).join('.'));
    expect(services.api!.ports).toBeUndefined();
    expect(services.api!.expose).toEqual(['3000', '3001', '3002', '9464']);
  });

  it('the metrics of the API, the worker and its Temporal SDK (one port per worker process, as many as the default count) listen on the compose network, and neither the proxy nor any service publishes them', () => {
    const config = (name: string) =>
      loadConfig(
        Object.fromEntries(
          Object.entries(services[name]!.environment!).map(([variable, value]) => [
            variable,
            interpolate(value, operatorValue),
          ]),
        ),
      );
    const api = config('api');
    const worker = config('worker');
    expect([api.METRICS_BIND, worker.METRICS_BIND]).toEqual(['0.0.0.0', '0.0.0.0']);
    expect(services.api!.expose).toContain(String(api.METRICS_PORT));
    expect(services.worker!.expose).toEqual([
      String(worker.WORKER_METRICS_PORT),
      `${worker.TEMPORAL_METRICS_PORT}-${worker.TEMPORAL_METRICS_PORT + defaultProcessCount(64) - 1}`,
    ]);
    const published = Object.values(services).flatMap((service) => service.ports ?? []);
    for (const port of [api.METRICS_PORT, worker.WORKER_METRICS_PORT, worker.TEMPORAL_METRICS_PORT])
      expect(published.filter((mapping) => mapping.endsWith(`:${port}`))).toEqual([]);
    expect(nginxConfig).not.toContain(String(api.METRICS_PORT));
  });

  it('runs the official validator built from validator/ by Maven, on the port VALIDATOR_URL names', () => {
    expect(services.validator?.build).toBe('./validator');
    const dockerfile = readFileSync(path.resolve(__dirname, '../../validator/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN mvn -q -B package/);
    const port = new URL(services.api!.environment!.VALIDATOR_URL!).port;
    expect(dockerfile).toContain(`"--port", "${port}"`);
  });

  it('runs our access point built from access-point/ by Maven, on the port ACCESS_POINT_URL names, with the operator-supplied certificate', () => {
    const accessPoint = services['access-point'] as {
      build?: string;
      environment?: Record<string, string>;
      volumes?: string[];
    };
    expect(accessPoint.build).toBe('./access-point');
    const dockerfile = readFileSync(path.resolve(__dirname, '../../access-point/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN mvn -q -B package/);
    expect(dockerfile).toContain(`AP_PORT=${new URL(services.api!.environment!.ACCESS_POINT_URL!).port}`);
    expect(accessPoint.environment?.AP_KEYSTORE_PASSWORD).toMatch(/^\$\{PEPPOL_AP_KEYSTORE_PASSWORD:\?/);
    expect(accessPoint.volumes).toEqual([
      '${PEPPOL_AP_DIR:-./peppol-ap}:/run/peppol:ro',
      '${PEPPOL_SMP_DIR:-./peppol-smp}:/run/peppol-smp:ro',
    ]);
  });

  it('traces our access point as the embedded stack does: the image holds the Java agent the stack fetches, and compose gives it the same settings and collector as the API and worker', () => {
    const dockerfile = readFileSync(path.resolve(__dirname, '../../access-point/Dockerfile'), 'utf8');
    expect(dockerfile).toContain(
      `-Dartifact=io.opentelemetry.javaagent:opentelemetry-javaagent:${OPENTELEMETRY_JAVA_AGENT.version} `,
    );
    expect(dockerfile).toContain('${OTEL_EXPORTER_OTLP_ENDPOINT:+-javaagent:/app/opentelemetry-javaagent.jar}');
    const accessPoint = services['access-point']!.environment!;
    expect(accessPoint).toMatchObject(accessPointTracing('').env);
    for (const name of ['api', 'worker'])
      expect(services[name]!.environment!.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(accessPoint.OTEL_EXPORTER_OTLP_ENDPOINT);
  });

  it('receives: our access point hands AS4 messages through the proxy to an API intake with the shared token, and the API serves our SMP, which the access point registers in the SML', () => {
    const accessPoint = services['access-point']!;
    const api = services.api!.environment!;
    expect(accessPoint.environment?.AP_INBOUND_URL).toBe(`http://proxy:${api.INBOUND_PORT}/inbound`);
    expect(services.proxy!.expose).toContain(api.INBOUND_PORT);
    expect(accessPoint.environment?.AP_INBOUND_TOKEN).toMatch(/^\$\{INBOUND_TOKEN:\?/);
    expect(api.INBOUND_TOKEN).toMatch(/^\$\{INBOUND_TOKEN:\?/);
    expect(services.proxy!.ports).not.toContain(`${api.INBOUND_PORT}:${api.INBOUND_PORT}`);
    expect(accessPoint.environment?.SML_SMP_URL).toMatch(/^\$\{SMP_PUBLIC_URL:\?/);
    expect(api.SMP_PUBLIC_URL).toMatch(/^\$\{SMP_PUBLIC_URL:\?/);
    expect(services.proxy!.ports).toContain(`${api.SMP_PORT}:${api.SMP_PORT}`);
  });

  it('the Dockerfile builds the entry points compose runs', () => {
    const dockerfile = readFileSync(path.resolve(__dirname, '../../Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/RUN npm run build/);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
  });
});
