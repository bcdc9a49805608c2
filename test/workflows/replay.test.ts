import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

import { cachedWorkflowBundle } from '../../worker/workflow-bundle';
import { KYC_SCENARIOS } from './kyc-scenarios';
import { RECEIVE_SCENARIOS, SEND_RESPONSE_HISTORY } from './receive-scenarios';
import { RECEIVING_SCENARIOS } from './receiving-scenarios';
import { REPORTING_SCENARIOS } from './reporting-scenarios';
import { SCENARIOS } from './scenarios';
import { WEBHOOK_SCENARIOS } from './webhook-scenarios';

/** The history file each scenario is recorded in (record-histories.ts names them so). */
const RECORDED = [
  ...SCENARIOS.map(({ name }) => `send-document-${name}`),
  ...KYC_SCENARIOS.map(({ name }) => `kyc-review-${name}`),
  ...RECEIVE_SCENARIOS.map(({ name }) => `receive-document-${name}`),
  SEND_RESPONSE_HISTORY,
  ...RECEIVING_SCENARIOS.map(({ name }) => `sync-receiving-${name}`),
  ...WEBHOOK_SCENARIOS.map(({ name }) => `webhook-endpoint-${name}`),
  ...REPORTING_SCENARIOS.map(({ name }) => `peppol-reporting-${name}`),
].map((name) => `${name}.json`);

/**
 * Recorded histories of every workflow with scenarios (send, KYC review,
 * receive, receiving registration, webhook endpoint, monthly reporting; see
 * record-histories.ts), one for each scenario at least, replayed against the current workflow code. A change
 * that would break workflows already running fails here; such a change needs
 * a new build: the workflows already running finish on the one that started them (docs/operations.md).
 */
describe('replaying recorded workflow histories', () => {
  const dir = path.join(__dirname, 'histories');

  it('when every recorded history is replayed against the current code, then none diverges', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
    // Every scenario is replayed (the receive workflow's reply branch among them): a scenario added without its recording fails here.
    expect(files).toEqual(expect.arrayContaining(RECORDED));
    const codePath = await cachedWorkflowBundle();
    for (const file of files) {
      const history = historyFromJSON(JSON.parse(await readFile(path.join(dir, file), 'utf8')));
      await expect(Worker.runReplayHistory({ workflowBundle: { codePath } }, history, file)).resolves.toBeUndefined();
    }
  });
});
