export { isolatedStackConfig } from '../../stack/isolated-config';

/** What global setup tells the test files about the shared stack. */
export interface SharedStack {
  apiUrl: string;
  mongodbUri: string;
  temporalAddress: string;
  smtpUrl: string;
  inboxUrl: string;
  /** The official validator service the stack runs. */
  validatorUrl: string;
  namespace: string;
  maxBodyBytes: number;
  rateLimitSandbox: number;
  rateLimitLive: number;
  signupLimit: number;
  ublValidationsPerIp: number;
  lookupLimit: number;
  /** The longest the worker keeps a receiver's lookup (PEPPOL_LOOKUP_CACHE_SECONDS). */
  lookupCacheSeconds: number;
  /** The local Peppol network stand-in the stack runs: its SML's DNS server (host:port), zone, management interface, SMP, receiving access point, independent access point (Oxalis, its AS4 URL) and the local test CA (PEM file). */
  peppol: {
    dnsServer: string;
    zone: string;
    sml: string;
    smp: string;
    receivingAccessPoint: string;
    oxalis: string;
    ca: string;
  };
  /** Our access point (sending, and registering our SMP's participants in the stand-in's SML). */
  accessPointUrl: string;
  /** The API's intake, where our access point hands over what it received (INBOUND_PORT). */
  intakeUrl: string;
  /** The stack's key for webhook secrets, for a second API process on the same data. */
  webhookSecretKey: string;
  /** The stack's key for KYC content, likewise, and to open what the API sealed. */
  kycEncryptionKey: string;
  /** Which engines run (STACK_SHAPE), and the production shape's PostgreSQL port and Temporal Web UI. */
  shape: 'development' | 'production';
  postgresPort: number;
  temporalUi: string;
  /** Where the stack keeps its state, and the keys it made. */
  dataDir: string;
  keysDir: string;
  /** Prometheus metrics: the API's, the worker's, and the Temporal SDK's of the (first) worker process. */
  metrics: { api: string; worker: string; temporalWorker: string };
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
