import { executeChild, setCurrentDetails, WorkflowIdReusePolicy } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';

import type { Activities } from '../activities';
import { previousMonth } from '../domain/reporting/months';
import { activitiesOn } from './activities-on';
import { peppolReportingWorkflowId, REPORTING_RETRY, type PeppolReportingInput } from './shared';
import { movesToNewBuilds } from './versioning';

type ReportingOutcome = Awaited<ReturnType<Activities['sendPeppolReports']>>;

/**
 * One month's Peppol reports (TSR and EUSR), `peppol-reporting-<YYYY-MM>`:
 * built from the recorded transactions, judged by the official rules and
 * sent by AS4 to the reporting receiver, once (the month's claim in the
 * database keeps what was sent; see services/reporting/send.ts).
 */
export async function peppolReportingWorkflow({ month, claimant }: PeppolReportingInput): Promise<ReportingOutcome> {
  setCurrentDetails(`Building, validating and sending the Peppol reports for ${month}`);
  // Due by the 15th: retried for ten days at most.
  const { sendPeppolReports } = activitiesOn('as4', {
    startToCloseTimeout: '5 minutes',
    scheduleToCloseTimeout: '10 days',
    retry: REPORTING_RETRY,
  });
  const outcome = await sendPeppolReports(month, claimant);
  setCurrentDetails(
    `Peppol reports for ${month} ${outcome.status === 'sent' ? 'sent' : 'had been sent'} to ${outcome.receiver} (claimed by ${outcome.claimedBy})`,
  );
  return outcome;
}

/**
 * Run by the `peppol-reporting-monthly` schedule (day 2, 06:07 UTC): the
 * previous month's workflow under its business id. A month whose workflow
 * completed before (an operator sent it already) is not started again.
 */
export async function monthlyPeppolReportingWorkflow(): Promise<string> {
  // Workflow time is the schedule's firing time, recorded in history: deterministic on replay.
  const month = previousMonth(new Date());
  try {
    const outcome = await executeChild(peppolReportingWorkflow, {
      workflowId: peppolReportingWorkflowId(month),
      args: [{ month, claimant: 'schedule' }],
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    });
    return `${month}: ${outcome.status}`;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return `${month}: its reporting workflow ran already`;
    throw err;
  }
}

movesToNewBuilds(peppolReportingWorkflow);
