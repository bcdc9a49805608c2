import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import {
  defineUpdate,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';

import type { Activities } from '../activities';
import type { AcceptanceOutcome } from '../domain/documents/acceptance';
import { TRANSITIONS, type DocumentStatus } from '../domain/documents/lifecycle';
import { activitiesOn } from './activities-on';
import {
  ACCEPT_UPDATE,
  DELIVERY_ATTEMPT_TIMEOUT_MS,
  DELIVERY_HEARTBEAT_TIMEOUT_MS,
  DELIVERY_RETRY,
  ILLEGAL_MOVE_ERROR,
  type DeliveryChannel,
  PERMANENT_DELIVERY_ERROR,
  SEARCH_ATTRIBUTES,
  type SendDocumentInput,
} from './shared';

/**
 * One document, one workflow (id `send-<document id>`), started by the
 * request that accepts it (Update-with-Start), following the lifecycle table
 * (domain/documents/lifecycle.ts):
 *
 *   (request) ──record──▶ queued   the first step; the `accept` update answers the request with its outcome
 *       └──(a repeated idempotency key, credits short)──▶ not recorded: the workflow ends
 *
 *   queued ──(official rules accept)──send──▶ sending ──deliver──▶ delivered
 *     │                                          │ ▲
 *     │                                          └─┘ retry: a transient error; the activity retry policy waits and tries again
 *     │                                          │
 *     └──(official rules refuse)──fail──▶ failed ◀┘ a permanent error, or the delivery window ran out
 *
 * The validating step runs the stored UBL through the official Peppol
 * artefacts; a refused document is never sent. A document sent with
 * `attach_pdf` first gets its rendering embedded, so what is validated is
 * what is sent. The same step renders a sandbox document's PDF for its email
 * once the rules accept it (no delivery attempt waits on a rendering; a
 * document that cannot be rendered goes with the UBL only). The deliver
 * step's channel follows the document's environment: sandbox by email, live
 * on the Peppol network by AS4. A validator that does not answer is retried
 * like a delivery, within the same window.
 *
 * Each workflow task and activity task is a round trip through the server and
 * writes to its history, so a document has as few as its guarantees allow
 * (docs/benchmarks.md, Cost per document): the moves are local activities
 * (short database writes, each guarded by the lifecycle operation and safe to
 * repeat); validation and the PDF are one activity (its retry policy is the
 * validation's, the PDF one best-effort try inside it); the delivery is an
 * ordinary activity whose attempts' backoff is the retry policy, bounded by
 * the delivery window as its schedule-to-close timeout; and the status search
 * attribute is written only when it changes (the start sets `queued`).
 */

const MOVE_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  nonRetryableErrorTypes: [ILLEGAL_MOVE_ERROR],
};
const lifecycle = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: MOVE_RETRY });

/**
 * A permanent error speaks for itself; anything else reached the workflow
 * because the delivery window ran out (Temporal then reports the last
 * attempt's failure, or a timeout).
 */
export function reasonOf(err: unknown, windowSeconds: number, what = 'Delivery'): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type === PERMANENT_DELIVERY_ERROR) return cause.message;
  const last =
    cause instanceof TimeoutFailure ? cause.cause?.message : cause instanceof Error ? cause.message : undefined;
  return `${what} did not succeed within ${windowSeconds} s${last ? `; last error: ${last}` : ''}.`;
}

/**
 * What the Web UI shows of a document: its status as a search attribute, written only when it changes (the
 * start sets `queued`), and what the workflow is doing as its current details.
 */
function statusDisplay() {
  let shown: DocumentStatus = TRANSITIONS.accept.to;
  return (status: DocumentStatus, details: string): void => {
    if (status !== shown) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.documentStatus, value: status }]);
    shown = status;
    setCurrentDetails(details);
  };
}

/** Retried with the delivery's backoff within the delivery window: a validator or renderer away is waited for. */
function preparation(deliveryWindowSeconds: number) {
  return activitiesOn('validation', {
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: `${deliveryWindowSeconds} seconds`,
    retry: {
      initialInterval: DELIVERY_RETRY.initialIntervalMs,
      backoffCoefficient: DELIVERY_RETRY.backoffCoefficient,
      maximumInterval: DELIVERY_RETRY.maximumIntervalMs,
    },
  });
}

/** On the queue of the channel's resource: the SMTP server's for email, our access point's for Peppol. */
function deliveryAttempts(channel: DeliveryChannel, deliveryWindowSeconds: number) {
  return activitiesOn(channel === 'peppol' ? 'as4' : 'email', {
    startToCloseTimeout: DELIVERY_ATTEMPT_TIMEOUT_MS,
    heartbeatTimeout: DELIVERY_HEARTBEAT_TIMEOUT_MS,
    scheduleToCloseTimeout: `${deliveryWindowSeconds} seconds`,
    retry: {
      initialInterval: DELIVERY_RETRY.initialIntervalMs,
      backoffCoefficient: DELIVERY_RETRY.backoffCoefficient,
      maximumInterval: DELIVERY_RETRY.maximumIntervalMs,
      nonRetryableErrorTypes: [PERMANENT_DELIVERY_ERROR],
    },
  });
}

/** @internal */
export const acceptUpdate = defineUpdate<AcceptanceOutcome>(ACCEPT_UPDATE);

/** What a send workflow ends with: the document's last status, or that its first step recorded no document. */
export type SendOutcome = DocumentStatus | 'not recorded';

export async function sendDocumentWorkflow({
  documentId,
  acceptance,
  deliveryWindowSeconds,
  attachPdf,
}: SendDocumentInput): Promise<SendOutcome> {
  // The request waits on the update for this step; it is registered before anything awaits, so the update sent with the start finds it.
  const recording = lifecycle.recordAcceptance(acceptance);
  setHandler(acceptUpdate, () => recording);
  const { outcome } = await recording;
  if (outcome !== 'accepted') {
    setCurrentDetails(`Not recorded (${outcome})`);
    return 'not recorded';
  }

  const show = statusDisplay();
  const fail = async (reason: string, ruleSet?: string): Promise<DocumentStatus> => {
    await lifecycle.markFailed(documentId, reason, ruleSet);
    show(TRANSITIONS.fail.to, reason);
    return TRANSITIONS.fail.to;
  };

  const preparing = preparation(deliveryWindowSeconds);
  let verdict: { ruleSet: string; refusal: string | null };
  try {
    if (attachPdf) {
      show(TRANSITIONS.accept.to, 'Rendering the PDF to attach');
      await preparing.embedRenderedPdf(documentId);
    }
    show(TRANSITIONS.accept.to, 'Validating with the official Peppol rules');
    verdict = await preparing.validateForSending(documentId);
  } catch (err) {
    return fail(reasonOf(err, deliveryWindowSeconds, 'Official validation'));
  }
  if (verdict.refusal !== null) return fail(verdict.refusal, verdict.ruleSet);

  const { channel } = await lifecycle.markSending(documentId, verdict.ruleSet);
  show(
    TRANSITIONS.send.to,
    channel === 'peppol' ? 'Delivering on the Peppol network (AS4)' : 'Delivering by email (sandbox)',
  );
  const delivery = deliveryAttempts(channel, deliveryWindowSeconds);
  try {
    const receipt =
      channel === 'peppol' ? await delivery.deliverOnPeppol(documentId) : await delivery.deliverByEmail(documentId);
    await lifecycle.markDelivered(documentId, receipt);
    show(TRANSITIONS.deliver.to, receipt.description ?? `Delivered; Message-ID ${receipt.messageId}`);
    return TRANSITIONS.deliver.to;
  } catch (err) {
    return fail(reasonOf(err, deliveryWindowSeconds));
  }
}
