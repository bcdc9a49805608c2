import { proxyActivities, setCurrentDetails } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { PROVISION_RETRY, type ProvisionCompanyInput } from './shared';
import { movesToNewBuilds } from './versioning';

const { provisionCompany } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: PROVISION_RETRY });

/**
 * A company created in an approved workspace that the provider did not take
 * at once (id `provision-<company id>`): retried until it does, or until the
 * company is deleted.
 */
export async function provisionCompanyWorkflow({ companyId }: ProvisionCompanyInput): Promise<'live' | 'gone'> {
  setCurrentDetails(`Provisioning ${companyId} with the live provider (retried until it is taken)`);
  const outcome = await provisionCompany(companyId);
  setCurrentDetails(outcome === 'live' ? `${companyId} is live` : `${companyId} was deleted before it was provisioned`);
  return outcome;
}

movesToNewBuilds(provisionCompanyWorkflow);
