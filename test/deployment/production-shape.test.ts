import { loadConfig, type Config } from '../../platform/config';
import { defaultProcessCount } from '../../platform/process-copies';
import { loadStackConfig } from '../../stack/config';
import { POSTGRES_DATABASES, postgresRelease } from '../../stack/production/postgres';
import { temporalServerConfig } from '../../stack/production/temporal-server';
import { TEMPORAL_SERVER, TEMPORAL_UI } from '../../stack/tools';
import { interpolate, operatorValue, services } from '../support/compose';

/**
 * What `STACK_SHAPE=production` runs is what compose runs: the same engine releases, the same Temporal database
 * settings, and the same service configuration except where a difference is named below with its reason. A
 * change to one side alone fails here.
 */

/** Where the production shape differs from compose on purpose: one machine instead of a container network. */
const EXPLAINED: Partial<Record<keyof Config, string>> = {
  MONGODB_URI: 'an address: FerretDB on PostgreSQL here, a MongoDB replica set there',
  TEMPORAL_ADDRESS: 'an address',
  SMTP_URL: 'an address',
  VALIDATOR_URL: 'an address',
  ACCESS_POINT_URL: 'an address',
  BIND_HOST: 'loopback here, every interface of the container there',
  INBOUND_BIND: 'likewise',
  METRICS_BIND: 'likewise',
  TRUSTED_PROXIES: 'the front proxy is on loopback here, at a fixed address of the compose network there',
  PUBLIC_SANDBOX_URL: 'the front proxy’s address',
  LIVE_HOSTS:
    'here live is also localhost, a name Node resolves (the SDK and MCP server reach live with it); compose’s front serves live.localhost only',
  SMP_PORT: 'a port of this machine',
  PEPPOL_SMP_CA: 'files mounted into the containers there; the local test PKI’s here',
  PEPPOL_AP_CA: 'likewise',
  SMP_SIGNING_CERTIFICATE: 'likewise',
  SMP_SIGNING_KEY: 'likewise',
  ACCESS_POINT_CERTIFICATE: 'likewise',
  WORKFLOW_BUNDLE: 'built into the image there, bundled at start here',
  PEPPOL_SEAT_ID: 'the operator gives it there; the stack makes its own: the local test PKI’s seat',
  WEBHOOK_SECRET_KEY: 'likewise: a key the stack makes in KEYS_DIR',
  KYC_ENCRYPTION_KEY: 'likewise',
  INBOUND_TOKEN: 'likewise',
  SMP_PUBLIC_URL: 'likewise: our SMP and access point on this machine',
  ACCESS_POINT_ENDPOINT_URL: 'likewise',
  API_PROCESSES: 'two here (this shape’s default), one per core there',
  API_WORKER_THREADS: 'follows API_PROCESSES and the cores',
  WORKER_PROCESSES: 'likewise',
};

const composeConfig = (service: 'api' | 'worker') =>
  loadConfig(
    Object.fromEntries(
      Object.entries(services[service]!.environment!).map(([variable, value]) => [
        variable,
        interpolate(value, operatorValue),
      ]),
    ),
  );

describe('the production shape and docker-compose.yml', () => {
  const shape = loadStackConfig({ STACK_SHAPE: 'production' });

  it.each(['api', 'worker'] as const)(
    'configure %s alike, except for the differences named with their reasons',
    (service) => {
      const composed = composeConfig(service);
      const differing = Object.keys(services[service]!.environment!).filter(
        (variable) =>
          !(variable in EXPLAINED) &&
          JSON.stringify(composed[variable as keyof Config]) !== JSON.stringify(shape[variable as keyof Config]),
      );
      expect(
        differing.map(
          (variable) =>
            `${variable}: compose ${JSON.stringify(composed[variable as keyof Config])}, production shape ${JSON.stringify(shape[variable as keyof Config])}`,
        ),
      ).toEqual([]);
    },
  );

  it('run two API and two worker processes unless told otherwise, as compose scales them, where the development shape follows the cores', () => {
    expect([shape.API_PROCESSES, shape.WORKER_PROCESSES]).toEqual([2, 2]);
    const told = loadStackConfig({ STACK_SHAPE: 'production', API_PROCESSES: '3', WORKER_PROCESSES: '1' });
    expect([told.API_PROCESSES, told.WORKER_PROCESSES]).toEqual([3, 1]);
    const development = loadStackConfig({ API_PROCESSES: '', WORKER_PROCESSES: '' });
    expect(development.STACK_SHAPE).toBe('development');
    expect([development.API_PROCESSES, development.WORKER_PROCESSES]).toEqual([
      defaultProcessCount(),
      defaultProcessCount(),
    ]);
  });

  it('run the same Temporal server and Web UI releases', () => {
    expect(services.temporal!.image).toBe(`temporalio/auto-setup:${TEMPORAL_SERVER.version.replace(/^v/, '')}`);
    expect(services['temporal-ui']!.image).toBe(`temporalio/ui:${TEMPORAL_UI.version.replace(/^v/, '')}`);
  });

  it('keep Temporal on PostgreSQL of the same major release, with the same plugin, role and number of history shards', () => {
    const settings = temporalServerConfig(
      { frontendPort: 7233, internalPort: 7234, postgresPort: 5432, historyShards: shape.TEMPORAL_HISTORY_SHARDS },
      'dynamic.yaml',
    ) as {
      persistence: {
        numHistoryShards: number;
        datastores: Record<string, { sql: { pluginName: string; user: string; password: string } }>;
      };
    };
    const temporal = services.temporal!.environment!;
    const database = services['temporal-db']!;
    for (const store of Object.values(settings.persistence.datastores)) {
      expect(store.sql).toMatchObject({
        pluginName: temporal.DB,
        user: temporal.POSTGRES_USER,
        password: temporal.POSTGRES_PWD,
      });
    }
    expect(database.environment).toMatchObject({
      POSTGRES_USER: POSTGRES_DATABASES.temporal.user,
      POSTGRES_PASSWORD: POSTGRES_DATABASES.temporal.password,
    });
    expect(String(settings.persistence.numHistoryShards)).toBe(
      interpolate(temporal.NUM_HISTORY_SHARDS!, operatorValue),
    );
    expect(database.image).toBe(`postgres:${postgresRelease().split('.')[0]}`);
  });

  it('register the namespace the services use', () => {
    expect(composeConfig('worker').TEMPORAL_NAMESPACE).toBe(shape.TEMPORAL_NAMESPACE);
  });
});
