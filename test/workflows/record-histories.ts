import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { startStack } from '../../stack/embedded-stack';
import { isolatedStackConfig } from '../../stack/isolated-config';
import { TEMPORAL_CLI, toolBinaryPath } from '../../stack/tools';
import { KYC_SCENARIOS, runKycScenario } from './kyc-scenarios';
import { RECEIVE_SCENARIOS, runReceiveScenario, SEND_RESPONSE_HISTORY } from './receive-scenarios';
import { RECEIVING_SCENARIOS, runReceivingScenario } from './receiving-scenarios';
import { REPORTING_SCENARIOS, runReportingScenario } from './reporting-scenarios';
import { runScenario, SCENARIOS } from './scenarios';
import { runWebhookScenario, WEBHOOK_SCENARIOS } from './webhook-scenarios';

/**
 * `npm run record-histories [-- <prefix>…]`: runs every scenario of the send
 * workflow, the KYC review workflow, the receive workflow, the receiving
 * (registration) workflow, the webhook endpoint workflow and the monthly reporting workflows (or only those whose file
 * name starts with one of the prefixes, so that new scenarios are recorded beside the files kept) on a stack of its
 * own and writes each history to test/workflows/histories/send-document-<scenario>.json, kyc-review-<scenario>.json,
 * receive-document-<scenario>.json (and the acknowledgement's send-response-acknowledgement-sent.json), sync-receiving-<scenario>.json, webhook-endpoint-<scenario>.json and
 * peppol-reporting-<scenario>.json. Re-record after a change of a workflow's shape: the workflows already running
 * finish on the build that started them (docs/operations.md, Deploying with work in flight).
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
    const prefixes = process.argv.slice(2);
    const wanted = (name: string) => prefixes.length === 0 || prefixes.some((prefix) => name.startsWith(prefix));
    for (const scenario of SCENARIOS) {
      const name = `send-document-${scenario.name}`;
      if (wanted(name))
        await runScenario(stack.urls.temporal, scenario).then((run) => keep(run.workflowId, name, run.result));
    }
    for (const scenario of KYC_SCENARIOS) {
      const name = `kyc-review-${scenario.name}`;
      if (wanted(name))
        await runKycScenario(stack.urls.temporal, scenario).then((run) =>
          keep(run.workflowId, name, run.result.status),
        );
    }
    for (const scenario of RECEIVE_SCENARIOS) {
      const name = `receive-document-${scenario.name}`;
      if (!wanted(name)) continue;
      const run = await runReceiveScenario(stack.urls.temporal, scenario);
      await keep(run.workflowId, name, run.result);
      // The acknowledgement's send workflow, the receive workflow's child: the one history of sendResponseWorkflow.
      if (run.acknowledgementWorkflowId) await keep(run.acknowledgementWorkflowId, SEND_RESPONSE_HISTORY, run.sent);
    }
    for (const scenario of RECEIVING_SCENARIOS) {
      const name = `sync-receiving-${scenario.name}`;
      if (wanted(name))
        await runReceivingScenario(stack.urls.temporal, scenario).then((run) => keep(run.workflowId, name, run.result));
    }
    for (const scenario of WEBHOOK_SCENARIOS) {
      const name = `webhook-endpoint-${scenario.name}`;
      if (wanted(name))
        await runWebhookScenario(stack.urls.temporal, scenario).then((run) => keep(run.workflowId, name, run.result));
    }
    for (const scenario of REPORTING_SCENARIOS) {
      const name = `peppol-reporting-${scenario.name}`;
      if (wanted(name))
        await runReportingScenario(stack.urls.temporal, scenario).then((run) => keep(run.workflowId, name, run.result));
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
