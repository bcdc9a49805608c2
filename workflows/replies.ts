import {
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  startChild,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';

import type { Activities } from '../activities';
import type { ReplyOutcome, ReplyRef } from '../domain/reply-events';
import { activitiesOn } from './activities-on';
import { reasonOf } from './send-document';
import {
  DELIVERY_ATTEMPT_TIMEOUT_MS,
  DELIVERY_HEARTBEAT_TIMEOUT_MS,
  DELIVERY_RETRY,
  MLS_SEND_WINDOW_SECONDS,
  PERMANENT_DELIVERY_ERROR,
  responseSendOptions,
  type ResponseSendStart,
  type StartedWorkflows,
} from './shared';

/**
 * Sending a reply about a received document, an Invoice Response or a
 * Message Level Status, the same way for both: validated by the official
 * rules (a fatal finding fails it), sent by AS4 (a document received in the
 * sandbox is answered without a network), then recorded `sent` or `failed`
 * with its event. Attempts back off as document deliveries do, within
 * `windowSeconds`; when it runs out, the reply is failed (its dead letter).
 */

const BACKOFF = {
  initialInterval: DELIVERY_RETRY.initialIntervalMs,
  backoffCoefficient: DELIVERY_RETRY.backoffCoefficient,
  maximumInterval: DELIVERY_RETRY.maximumIntervalMs,
};
const { recordReplyOutcome } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export async function deliverReply(reply: ReplyRef, windowSeconds: number): Promise<ReplyOutcome> {
  const window = `${windowSeconds} seconds`;
  const { validateReply } = activitiesOn('validation', {
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: window,
    retry: BACKOFF,
  });
  const { sendReplyOnPeppol } = activitiesOn('as4', {
    startToCloseTimeout: DELIVERY_ATTEMPT_TIMEOUT_MS,
    heartbeatTimeout: DELIVERY_HEARTBEAT_TIMEOUT_MS,
    scheduleToCloseTimeout: window,
    retry: { ...BACKOFF, nonRetryableErrorTypes: [PERMANENT_DELIVERY_ERROR] },
  });
  let outcome: ReplyOutcome;
  try {
    const verdict = await validateReply(reply);
    if (verdict.refusal !== null) outcome = { status: 'failed', error: verdict.refusal };
    else if (verdict.channel === 'none')
      outcome = { status: 'sent', messageId: null, description: 'Recorded in the sandbox (no Peppol network)' };
    else outcome = await sendReplyOnPeppol(reply);
  } catch (err) {
    outcome = { status: 'failed', error: reasonOf(err, windowSeconds, 'Sending') };
  }
  await recordReplyOutcome(reply, outcome);
  return outcome;
}

/**
 * An acknowledgement's send workflow, started as a child that outlives the receive workflow (it may retry for
 * days; the receive workflow ends once it has answered). Its first step claims the response.
 */
async function sendAcknowledgement(start: ResponseSendStart): Promise<void> {
  await startChild<StartedWorkflows['sendResponseWorkflow']>('sendResponseWorkflow', {
    ...responseSendOptions(start),
    args: [start.input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
  });
}

/**
 * What the receive workflow owes a filed and announced message: the Message
 * Level Status its sender asked for (within the specification's 20 minutes:
 * planning and sending are bounded by MLS_SEND_WINDOW_SECONDS), and, for a
 * company with `auto_acknowledge`, the Invoice Response `AB` (recorded by an
 * activity, claimed and sent by its own workflow, this one's child). Neither may keep the
 * received document from being received: a step that cannot be done in time
 * is logged and recorded, never retried forever.
 */
export async function answerReceived(
  documentId: string,
): Promise<{ mls: ReplyOutcome | null; acknowledgement: string | null }> {
  const { planMessageLevelStatus } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: `${MLS_SEND_WINDOW_SECONDS / 3} seconds`,
    retry: BACKOFF,
  });
  const { acknowledgeOnReceipt } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { ...BACKOFF, maximumAttempts: 5 },
  });
  const mls = async () => {
    const planned = await planMessageLevelStatus(documentId).catch(() => null);
    return planned ? deliverReply(planned, MLS_SEND_WINDOW_SECONDS) : null;
  };
  const acknowledge = async () => {
    const start = await acknowledgeOnReceipt(documentId).catch(() => null);
    if (start) await sendAcknowledgement(start);
    return start?.input.responseId ?? null;
  };
  const [mlsOutcome, acknowledgement] = await Promise.all([mls(), acknowledge()]);
  return { mls: mlsOutcome, acknowledgement };
}
