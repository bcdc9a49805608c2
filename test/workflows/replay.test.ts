import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';

import { cachedWorkflowBundle } from '../../worker/workflow-bundle';

/**
 * Recorded histories of every workflow with scenarios (send, KYC review,
 * receive, receiving registration, webhook delivery, monthly reporting; see
 * record-histories.ts) replayed against the current workflow code. A change
 * that would break workflows already running fails here; such a change needs
 * `patched()` in the workflow.
 */
describe('replaying recorded workflow histories', () => {
  const dir = path.join(__dirname, 'histories');

  it('when every recorded history is replayed against the current code, then none diverges', async () => {
    const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const codePath = await cachedWorkflowBundle();
    for (const file of files) {
      const history = historyFromJSON(JSON.parse(await readFile(path.join(dir, file), 'utf8')));
      await expect(Worker.runReplayHistory({ workflowBundle: { codePath } }, history, file)).resolves.toBeUndefined();
    }
  });
});
