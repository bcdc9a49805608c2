import { startSharedStack } from '../global-setup';

/**
 * The shared stack on the production shape's engines, with compose's two API and two worker processes. Behind
 * the front proxy every test client is one address (127.0.0.1), as it would be one client behind nginx: the
 * per-address limits are raised so the slice's many signups and lookups do not count as one client's (the
 * limits themselves are the development lane's tests).
 */
export default async function globalSetup(): Promise<void> {
  const roomy = '100000';
  await startSharedStack({
    STACK_SHAPE: 'production',
    API_PROCESSES: '2',
    WORKER_PROCESSES: '2',
    SIGNUP_LIMIT: roomy,
    LOOKUP_LIMIT: roomy,
    UBL_VALIDATIONS_PER_IP: roomy,
    AUTH_FAILURE_LIMIT: roomy,
  });
}
