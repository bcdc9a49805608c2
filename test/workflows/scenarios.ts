import { WithStartWorkflowOperation, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import type { DeliveryReceipt } from '../../activities/lifecycle';
import type { OfficialVerdict } from '../../activities/official-validation';
import type { SendingVerdict } from '../../activities/validate-for-sending';
import type { AcceptanceOutcome, DocumentAcceptance } from '../../domain/documents/acceptance';
import { acceptUpdate, type sendDocumentWorkflow } from '../../workflows/send-document';
import {
  ACCEPT_UPDATE,
  PERMANENT_DELIVERY_ERROR,
  SEARCH_ATTRIBUTES,
  type DeliveryChannel,
} from '../../workflows/shared';
import { recordedAsAccepted, stubAcceptance } from '../support/stub-acceptance';
import { recorderOnce, runOnOwnWorker } from './own-worker';

/**
 * The send workflow with its activities stubbed, on a real Temporal server
 * (the shared test stack's dev server): each scenario scripts what delivery
 * does, and the run records which activities were called in what order.
 * The workflow tests assert on runs; the recorder keeps their histories for
 * the replay tests.
 */

export interface Scenario {
  name: string;
  /** Delivery window of the run, in seconds. */
  windowSeconds: number;
  /** What attempt n (1-based) of the delivery does. */
  attempt: (n: number) => 'deliver' | 'transient' | 'permanent';
  /** What call n (1-based) of the official validation answers; accepted when absent. */
  validation?: (n: number) => 'accept' | 'refuse' | 'unavailable';
  /** The channel the document's environment delivers by; email (sandbox) when absent. */
  channel?: DeliveryChannel;
  /** The sender asked for the rendered PDF to be embedded (`attach_pdf`). */
  attachPdf?: boolean;
  /** The sandbox email's PDF cannot be rendered (the renderer refuses for good); rendered when absent. The
   * workflow learns it from its validating step's answer. */
  readablePdfFails?: boolean;
  /** The first step finds the idempotency key used by an earlier request (the workflow records nothing); recorded when absent. */
  repeatedKey?: boolean;
}

export const SCENARIOS: Scenario[] = [
  { name: 'delivered', windowSeconds: 30, attempt: () => 'deliver' },
  { name: 'retried-then-delivered', windowSeconds: 30, attempt: (n) => (n <= 2 ? 'transient' : 'deliver') },
  { name: 'permanent-failure', windowSeconds: 30, attempt: () => 'permanent' },
  { name: 'window-ran-out', windowSeconds: 3, attempt: () => 'transient' },
  { name: 'refused-by-official-rules', windowSeconds: 30, attempt: () => 'deliver', validation: () => 'refuse' },
  {
    name: 'validator-unavailable-then-accepts',
    windowSeconds: 30,
    attempt: () => 'deliver',
    validation: (n) => (n === 1 ? 'unavailable' : 'accept'),
  },
  {
    name: 'live-retried-then-delivered-on-peppol',
    windowSeconds: 30,
    attempt: (n) => (n === 1 ? 'transient' : 'deliver'),
    channel: 'peppol',
  },
  { name: 'live-receiver-cannot-receive', windowSeconds: 30, attempt: () => 'permanent', channel: 'peppol' },
  { name: 'delivered-with-rendered-pdf', windowSeconds: 30, attempt: () => 'deliver', attachPdf: true },
  { name: 'delivered-without-a-readable-pdf', windowSeconds: 30, attempt: () => 'deliver', readablePdfFails: true },
  { name: 'not-recorded-repeated-key', windowSeconds: 30, attempt: () => 'deliver', repeatedKey: true },
];

export const RULE_SET = 'eu.peppol.bis3:2026.5';
export const REFUSAL = `Refused by the official Peppol rules (${RULE_SET}): 1 fatal finding: [BR-CO-16] Amount due for payment (BT-115) = … (at /Invoice)`;

const PERMANENT_FAILURES: Record<string, string> = {
  deliverByEmail: 'The mail server refused the message: 550 no such mailbox',
  deliverOnPeppol:
    'The receiver 0106:12345678 cannot receive BIS Billing 3.0 credit notes on Peppol: its SMP does not list the document type.',
};

export interface ScenarioRun {
  result: string;
  /** What the `accept` update answered the starter. */
  accepted: AcceptanceOutcome | undefined;
  calls: string[];
  failedWith: string | null;
  statusAttribute: unknown;
  /** The history's event types, e.g. EVENT_TYPE_ACTIVITY_TASK_SCHEDULED. */
  eventTypes: string[];
  workflowId: string;
  seconds: number;
}

/** The event types of a finished workflow's history, in order. */
export async function eventTypesOf(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => temporal.api.enums.v1.EventType[event.eventType ?? 0]!);
}

/**
 * The send workflow's activities, stubbed as the scenario scripts them: each call noted in `calls` (numbered per
 * delivery attempt and per validation), the reason of a failure given to `failed`.
 */
function scriptedActivities(scenario: Scenario, calls: string[], failed: (reason: string) => void) {
  let attempts = 0;
  let validations = 0;
  const record = recorderOnce(calls);
  /** Both channels' deliveries follow the scenario's script. */
  const attempt = (activity: string, documentId: string): Promise<DeliveryReceipt> => {
    attempts += 1;
    calls.push(`${activity} ${documentId} #${attempts}`);
    const outcome = scenario.attempt(attempts);
    if (outcome === 'permanent')
      return Promise.reject(ApplicationFailure.nonRetryable(PERMANENT_FAILURES[activity], PERMANENT_DELIVERY_ERROR));
    if (outcome === 'transient') return Promise.reject(new Error(`connection refused (attempt ${attempts})`));
    return Promise.resolve({ messageId: `<${documentId}@einvoice.localhost>`, sentAt: '2026-11-23T10:00:00.000Z' });
  };
  /** The official verdict, as either validating activity gives it. */
  const validate = (activity: string, documentId: string): Promise<OfficialVerdict> => {
    validations += 1;
    calls.push(`${activity} ${documentId} #${validations}`);
    const outcome = scenario.validation?.(validations) ?? 'accept';
    if (outcome === 'unavailable')
      return Promise.reject(new Error('the official validator did not answer: connection refused'));
    return Promise.resolve({ ruleSet: RULE_SET, refusal: outcome === 'refuse' ? REFUSAL : null });
  };
  return {
    recordAcceptance: async (acceptance: DocumentAcceptance): Promise<AcceptanceOutcome> => {
      await record(`recordAcceptance ${acceptance.row._id}`);
      return scenario.repeatedKey ? { outcome: 'repeat', documentId: 'doc_first' } : recordedAsAccepted(acceptance);
    },
    embedRenderedPdf: (documentId: string) => record(`embedRenderedPdf ${documentId}`),
    validateForSending: async (documentId: string): Promise<SendingVerdict> => {
      const verdict = await validate('validateForSending', documentId);
      if (verdict.refusal !== null || (scenario.channel ?? 'email') !== 'email')
        return { ...verdict, readablePdf: 'not needed' };
      return { ...verdict, readablePdf: scenario.readablePdfFails ? 'without' : 'rendered' };
    },
    markSending: async (documentId: string, ruleSet?: string) => {
      await record(`markSending ${documentId}${ruleSet ? ` ${ruleSet}` : ''}`);
      return { channel: scenario.channel ?? 'email' };
    },
    deliverByEmail: (documentId: string) => attempt('deliverByEmail', documentId),
    deliverOnPeppol: (documentId: string) => attempt('deliverOnPeppol', documentId),
    markDelivered: (documentId: string, receipt: DeliveryReceipt) =>
      record(`markDelivered ${documentId} ${receipt.messageId}`),
    markFailed: (documentId: string, reason: string, ruleSet?: string) => {
      failed(reason);
      return record(`markFailed ${documentId}${ruleSet ? ` ${ruleSet}` : ''}`);
    },
  };
}

/** Runs the scenario on a worker of its own, the workflow started as the API starts it, and tells what the run did. */
export async function runScenario(temporalAddress: string, scenario: Scenario): Promise<ScenarioRun> {
  const calls: string[] = [];
  let failedWith: string | null = null;
  let accepted: AcceptanceOutcome | undefined;
  const activities = scriptedActivities(scenario, calls, (reason) => (failedWith = reason));
  return runOnOwnWorker(
    temporalAddress,
    `workflow-test-${scenario.name}`,
    activities,
    // Started as the API starts it: with the `accept` update, answered by the first step.
    async (client, run) => {
      const startWorkflowOperation = new WithStartWorkflowOperation<typeof sendDocumentWorkflow>(
        'sendDocumentWorkflow',
        {
          ...run,
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          args: [
            {
              documentId: 'doc_test',
              acceptance: stubAcceptance('doc_test'),
              deliveryWindowSeconds: scenario.windowSeconds,
              ...(scenario.attachPdf && { attachPdf: true }),
            },
          ],
        },
      );
      accepted = await client.workflow.executeUpdateWithStart(acceptUpdate, {
        updateId: ACCEPT_UPDATE,
        startWorkflowOperation,
      });
      return startWorkflowOperation.workflowHandle();
    },
    async (handle, result, seconds) => ({
      result,
      accepted,
      calls,
      failedWith,
      statusAttribute: (await handle.describe()).typedSearchAttributes.get(SEARCH_ATTRIBUTES.documentStatus),
      eventTypes: await eventTypesOf(handle),
      workflowId: handle.workflowId,
      seconds,
    }),
  );
}
