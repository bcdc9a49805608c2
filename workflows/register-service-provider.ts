import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { SERVICE_PROVIDER_RETRY, type RegisterServiceProviderInput } from './shared';
import { movesToNewBuilds } from './versioning';

const { registerServiceProvider } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: SERVICE_PROVIDER_RETRY,
});

/**
 * Our service provider participant `0242:<SPID>` registered in the SML (id
 * `receiving-service-provider-<participant>`): Message Level Status goes to
 * the sending service provider (MLS 1.0), so the SML must name our SMP for
 * it; our SMP serves it from the start. Each worker starts it (a running one
 * is left to finish); the registration is idempotent.
 *
 *   register ──▶ registered
 *   the SML refuses for good ──▶ failed, saying why (the workflow's failure, visible in the Web UI)
 */
export async function registerServiceProviderWorkflow({
  participant,
}: RegisterServiceProviderInput): Promise<'registered'> {
  setCurrentDetails(`Registering ${participant} in the SML for Message Level Status`);
  await registerServiceProvider(participant);
  setCurrentDetails(`${participant} is registered in the SML`);
  return 'registered';
}

movesToNewBuilds(registerServiceProviderWorkflow);
