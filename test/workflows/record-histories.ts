import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { startStack } from '../../stack/embedded-stack';
import { isolatedStackConfig } from '../../stack/isolated-config';
import { TEMPORAL_CLI, toolBinaryPath } from '../../stack/tools';
import { KYC_SCENARIOS, runKycScenario } from './kyc-scenarios';
import { runScenario, SCENARIOS } from './scenarios';

/**
 * `npm run record-histories`: runs every scenario of the send workflow and of
 * the KYC review workflow on a stack of its own and writes each history to
 * test/workflows/histories/send-document-<scenario>.json and
 * kyc-review-<scenario>.json. When the workflow
 * changes shape on purpose (behind `patched()`), first rename the current
 * files with a version prefix and keep them: they are what running workflows
 * look like (`v1-…`: before the moves became local activities; `v2-…`:
 * before the validating step; `v3-…`: before live documents went on Peppol).
 */
async function main(): Promise<void> {
  const config = await isolatedStackConfig({ LOG_LEVEL: 'error' });
  const stack = await startStack({ config, services: [] });
  try {
    const keep = async (workflowId: string, name: string, result: unknown) => {
      const file = path.join(__dirname, 'histories', `${name}.json`);
      // The CLI's JSON is the format the SDK's replayer reads (historyFromJSON).
      const { stdout } = await promisify(execFile)(toolBinaryPath(config.TOOLS_DIR, TEMPORAL_CLI), [
        'workflow',
        'show',
        '--address',
        stack.urls.temporal,
        '--workflow-id',
        workflowId,
        '--output',
        'json',
      ]);
      await writeFile(file, `${JSON.stringify(JSON.parse(stdout), null, 1)}\n`);
      process.stdout.write(`${name}: ${JSON.stringify(result)} -> ${path.relative(process.cwd(), file)}\n`);
    };
    for (const scenario of SCENARIOS) {
      const run = await runScenario(stack.urls.temporal, scenario);
      await keep(run.workflowId, `send-document-${scenario.name}`, run.result);
    }
    for (const scenario of KYC_SCENARIOS) {
      const run = await runKycScenario(stack.urls.temporal, scenario);
      await keep(run.workflowId, `kyc-review-${scenario.name}`, run.result.status);
    }
  } finally {
    await stack.stop();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
