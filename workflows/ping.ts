import { proxyActivities } from '@temporalio/workflow';

import type { Activities } from '../activities';

const { recordPing } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** Smoke workflow: API/test → Temporal → worker → activity → database and back. */
export async function pingWorkflow(token: string): Promise<string> {
  return recordPing(token);
}
