import { startStack } from '../stack/embedded-stack';
import { isolatedStackConfig, publishSharedStack } from './support/test-stack';

/** Starts the shared embedded stack once; its children are stopped in global teardown. */
export default async function globalSetup(): Promise<void> {
  await startSharedStack({});
}

/** The shared stack, in the shape `shape` names (test/production/ runs a slice of the suite on the production shape). */
export async function startSharedStack(shape: Record<string, string>): Promise<void> {
  // A small body limit keeps the 413 test cheap; roomy per-key limits keep busy tests clear of 429
  // (the limit itself is tested with a per-account override and on its own API processes).
  // Webhook receivers in the tests listen on 127.0.0.1, and retries start after a second, not 30.
  const config = await isolatedStackConfig({
    MAX_BODY_BYTES: String(256 * 1024),
    RATE_LIMIT_SANDBOX: '600',
    RATE_LIMIT_LIVE: '700',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_RETRY_INITIAL_INTERVAL: '1s',
    // Small, so the per-IP limit of the public UBL validator is reached in a few calls.
    UBL_VALIDATIONS_PER_IP: '5',
    // Likewise for the participant lookup.
    LOOKUP_LIMIT: '5',
    // Short, so a test sees a changed registration after the lookup cache's maximum within seconds.
    PEPPOL_LOOKUP_CACHE_SECONDS: '10',
    ...shape,
  });
  const stack = await startStack({ config, log: (line) => process.stdout.write(`[test stack] ${line}\n`) });
  (globalThis as { __EINVOICE_STACK__?: unknown }).__EINVOICE_STACK__ = { stack, dataDir: config.DATA_DIR };
  publishSharedStack({
    apiUrl: stack.urls.api!,
    mongodbUri: stack.urls.mongodb,
    temporalAddress: stack.urls.temporal,
    smtpUrl: stack.urls.smtp,
    inboxUrl: stack.urls.inbox ?? '',
    validatorUrl: stack.urls.validator,
    namespace: config.TEMPORAL_NAMESPACE,
    maxBodyBytes: config.MAX_BODY_BYTES,
    rateLimitSandbox: config.RATE_LIMIT_SANDBOX,
    rateLimitLive: config.RATE_LIMIT_LIVE,
    signupLimit: config.SIGNUP_LIMIT,
    ublValidationsPerIp: config.UBL_VALIDATIONS_PER_IP,
    lookupLimit: config.LOOKUP_LIMIT,
    lookupCacheSeconds: config.PEPPOL_LOOKUP_CACHE_SECONDS,
    peppol: stack.urls.peppol!,
    accessPointUrl: stack.urls.accessPoint,
    intakeUrl: `http://127.0.0.1:${config.INBOUND_PORT}/inbound`,
    webhookSecretKey: stack.serviceEnv.WEBHOOK_SECRET_KEY!,
    kycEncryptionKey: stack.serviceEnv.KYC_ENCRYPTION_KEY!,
    shape: config.STACK_SHAPE,
    postgresPort: config.POSTGRES_PORT,
    temporalUi: stack.urls.temporalUi ?? '',
    dataDir: config.DATA_DIR,
    keysDir: config.KEYS_DIR,
    metrics: {
      api: stack.urls.metrics.api!,
      worker: stack.urls.metrics.worker!,
      temporalWorker: stack.urls.metrics.temporalWorker!,
    },
  });
}
