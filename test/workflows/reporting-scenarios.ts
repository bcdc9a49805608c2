import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

import { previousMonth } from '../../domain/reporting/months';
import type { ReportingOutcome } from '../../services/reporting/send';
import type { monthlyPeppolReportingWorkflow, peppolReportingWorkflow } from '../../workflows/peppol-reporting';
import { peppolReportingWorkflowId, REPORTING_REFUSED } from '../../workflows/shared';
import { runOnOwnWorker } from './own-worker';

/**
 * The monthly Peppol reporting workflows with their one activity stubbed, on
 * a real Temporal server: a month's reports sent or refused, and the
 * schedule's monthly run, which starts the previous month's workflow as its
 * child unless that month's ran before. The run records the calls (the
 * recorder keeps the history for the replay test).
 */

export interface ReportingScenario {
  name: string;
  /** `month`: one month's workflow, as `ops reporting --send` starts it; `monthly`: the schedule's run. */
  workflow: 'month' | 'monthly';
  /** What sending the reports does: sends them, or refuses them in a way no retry mends. */
  sending: 'sent' | 'refused';
  /** The month's workflow ran to its end before the monthly run (an operator sent the reports). */
  ranBefore?: boolean;
}

export const REPORTING_SCENARIOS: ReportingScenario[] = [
  { name: 'month-sent', workflow: 'month', sending: 'sent' },
  { name: 'month-refused', workflow: 'month', sending: 'refused' },
  { name: 'monthly-sent', workflow: 'monthly', sending: 'sent' },
  { name: 'monthly-month-ran-before', workflow: 'monthly', sending: 'sent', ranBefore: true },
];

export interface ReportingScenarioRun {
  /** The workflow's result, or `failed: <message>`. */
  result: string;
  calls: string[];
  workflowId: string;
}

export async function runReportingScenario(
  temporalAddress: string,
  scenario: ReportingScenario,
): Promise<ReportingScenarioRun> {
  const calls: string[] = [];
  const activities = {
    sendPeppolReports: (month: string, claimant: string): Promise<ReportingOutcome> => {
      calls.push(`sendPeppolReports ${month} (${claimant})`);
      if (scenario.sending === 'refused')
        return Promise.reject(
          ApplicationFailure.nonRetryable(`the reports of ${month} break the official rules`, REPORTING_REFUSED),
        );
      const at = `${month}-28T06:07:00.000Z`;
      return Promise.resolve({
        month,
        status: 'sent',
        claimedBy: claimant,
        receiver: '9925:BE0848934496',
        tsrSentAt: at,
        eusrSentAt: at,
        summary: 'TSR and EUSR sent',
      });
    },
  };
  // The schedule's run reports on the month before its own firing time, which is about now.
  const month = scenario.workflow === 'monthly' ? previousMonth(new Date()) : '2026-01';
  if (scenario.ranBefore) {
    // Under the month's own id, as the operator's run has it: the monthly run finds it there.
    await runOnOwnWorker(
      temporalAddress,
      `reporting-test-${scenario.name}-before`,
      activities,
      (client, run) =>
        client.workflow.start<typeof peppolReportingWorkflow>('peppolReportingWorkflow', {
          taskQueue: run.taskQueue,
          workflowId: peppolReportingWorkflowId(month),
          args: [{ month, claimant: 'ops' }],
        }),
      () => Promise.resolve(),
    );
  }
  let started: WorkflowHandle | undefined;
  try {
    return await runOnOwnWorker(
      temporalAddress,
      `reporting-test-${scenario.name}`,
      activities,
      async (client, run) => {
        const handle =
          scenario.workflow === 'monthly'
            ? await client.workflow.start<typeof monthlyPeppolReportingWorkflow>('monthlyPeppolReportingWorkflow', {
                ...run,
                args: [],
              })
            : await client.workflow.start<typeof peppolReportingWorkflow>('peppolReportingWorkflow', {
                ...run,
                args: [{ month, claimant: 'ops' }],
              });
        started = handle;
        return handle;
      },
      (handle, result) =>
        Promise.resolve({
          result: typeof result === 'string' ? result : `${result.month}: ${result.status}`,
          calls,
          workflowId: handle.workflowId,
        }),
    );
  } catch (err) {
    // A refusal fails the workflow, which is what its history records.
    if (scenario.sending !== 'refused' || !started) throw err;
    let cause = err as Error;
    while (cause.cause instanceof Error) cause = cause.cause;
    return { result: `failed: ${cause.message}`, calls, workflowId: started.workflowId };
  }
}
