import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { WorkflowFailedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';

import { monthPeriod } from '../domain/reporting/months';
import { officialValidator } from '../platform/official-validator';
import { peppolAccessPoint } from '../platform/peppol/access-point';
import { startWorkflow } from '../platform/workflow-port';
import { OperatorError } from '../services/operator/workspaces';
import { buildMonthReports, reportSummary, validationSummary } from '../services/reporting/reports';
import { doing } from './progress';
import type { ReportingOutcome } from '../services/reporting/send';
import type { StackConfig } from '../stack/config';
import type { Store } from '../store';
import { peppolReportingWorkflowId } from '../workflows/shared';

/**
 * `reporting <YYYY-MM> [--send] [--out <dir>]`: the month's Peppol reports.
 * Without --send: built from the recorded transactions now, judged by the
 * official rules, summed up and written to <dir> (default DATA_DIR/reports,
 * so a checkout is never littered) as `peppol-tsr-<month>.xml` and `peppol-eusr-<month>.xml`.
 * With --send: the month's reporting workflow (`peppol-reporting-<month>`,
 * the one the monthly schedule starts) is started and waited for, so both
 * paths share one guard: a month is sent once, and a month sent before is
 * said to be so; the files written are the reports as sent.
 */

export interface ReportingCommandContext {
  store: Store;
  temporal: () => Promise<Client>;
  stack: StackConfig;
}

const files = (dir: string, month: string) => ({
  tsr: path.resolve(dir, `peppol-tsr-${month}.xml`),
  eusr: path.resolve(dir, `peppol-eusr-${month}.xml`),
});

async function writeReports(dir: string, month: string, xml: { tsr: string; eusr: string }): Promise<string> {
  const target = files(dir, month);
  await writeFile(target.tsr, xml.tsr);
  await writeFile(target.eusr, xml.eusr);
  return `written: ${target.tsr}\n         ${target.eusr}`;
}

async function buildOnly({ store, stack }: ReportingCommandContext, month: string, dir: string): Promise<string> {
  const validator = officialValidator(stack.VALIDATOR_URL ?? `http://127.0.0.1:${stack.VALIDATOR_PORT}`);
  const accessPoint = peppolAccessPoint(stack.ACCESS_POINT_URL ?? `http://127.0.0.1:${stack.ACCESS_POINT_PORT}`);
  doing(`building the reports for ${month} and validating them with the official rules`);
  const reports = await buildMonthReports({ store, validator, seat: () => accessPoint.seat() }, month);
  const claimed = await store.reportingMonths
    .findById(month, { claimed_by: 1, tsr_sent_at: 1, eusr_sent_at: 1 })
    .lean();
  const state = !claimed
    ? 'not sent yet (--send sends them)'
    : claimed.tsr_sent_at && claimed.eusr_sent_at
      ? `already sent (by ${claimed.claimed_by}, ${claimed.eusr_sent_at.toISOString()}); these are built again from today's data, not sent`
      : `being sent by ${claimed.claimed_by}`;
  const output = [
    reportSummary(month, reports.tsr.statistics, reports.eusr.statistics),
    validationSummary(reports),
    await writeReports(dir, month, { tsr: reports.tsr.xml, eusr: reports.eusr.xml }),
    state,
  ].join('\n');
  if (!reports.tsr.validation.valid || !reports.eusr.validation.valid) throw new OperatorError(output);
  return output;
}

async function send({ store, temporal }: ReportingCommandContext, month: string, dir: string): Promise<string> {
  const client = await temporal();
  const workflowId = peppolReportingWorkflowId(month);
  const started = await startWorkflow(client, 'peppolReportingWorkflow', {
    workflowId,
    input: { month, claimant: 'ops' },
    // Only a month whose workflow failed may run again; a completed one stays sent.
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
  });
  doing(`sending the reports for ${month} by AS4 (workflow ${workflowId}) and waiting for the outcome`);
  let outcome: ReportingOutcome;
  try {
    outcome = (await client.workflow.getHandle(workflowId).result()) as ReportingOutcome;
  } catch (err) {
    if (err instanceof WorkflowFailedError)
      throw new OperatorError(
        `the reports for ${month} were not sent (workflow ${workflowId}): ${innermostMessage(err)}`,
      );
    throw err;
  }
  const sentBefore = !started || outcome.status === 'already_sent' || outcome.claimedBy !== 'ops';
  const row = await store.reportingMonths.findById(month, { tsr_xml: 1, eusr_xml: 1 }).lean();
  const head = sentBefore
    ? `the reports for ${month} were sent already, to ${outcome.receiver} (claimed by ${outcome.claimedBy}, EUSR sent ${outcome.eusrSentAt}); not sent again`
    : `sent to ${outcome.receiver}: TSR ${outcome.tsrSentAt}, EUSR ${outcome.eusrSentAt} (workflow ${workflowId})`;
  return [head, outcome.summary, row ? await writeReports(dir, month, { tsr: row.tsr_xml, eusr: row.eusr_xml }) : '']
    .filter(Boolean)
    .join('\n');
}

/** What the service said: a workflow's failure wraps the activity's, which wraps the refusal itself ("… has not ended yet"). */
function innermostMessage(err: Error): string {
  let innermost: Error = err;
  while (innermost.cause instanceof Error) innermost = innermost.cause;
  return innermost.message;
}

export async function reportingCommand(
  context: ReportingCommandContext,
  month: string,
  options: { send: boolean; out?: string },
): Promise<string> {
  try {
    monthPeriod(month);
  } catch (err) {
    throw new OperatorError((err as Error).message);
  }
  const dir = options.out ?? path.join(context.stack.DATA_DIR, 'reports');
  await mkdir(dir, { recursive: true });
  return options.send ? send(context, month, dir) : buildOnly(context, month, dir);
}
