import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { proxyActivities, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';

import type { Activities } from '../activities';
import type { DocumentStatus } from '../domain/documents/lifecycle';
import {
  DELIVERY_ATTEMPT_TIMEOUT_MS,
  DELIVERY_HEARTBEAT_TIMEOUT_MS,
  DELIVERY_RETRY,
  ILLEGAL_MOVE_ERROR,
  PERMANENT_DELIVERY_ERROR,
  SEARCH_ATTRIBUTES,
  type SendDocumentInput,
} from './shared';

/**
 * One document, one workflow (id `send-<document id>`), following the
 * lifecycle table (domain/documents/lifecycle.ts):
 *
 *   queued ──send──▶ sending ──deliver──▶ delivered
 *                       │ ▲
 *                       └─┘ retry: a transient error; the activity retry policy waits and tries again
 *                       │
 *                       └──fail──▶ failed: a permanent error, or the delivery window ran out
 *
 * The moves are activities (the lifecycle operation guards each); the
 * attempts' backoff is the activity retry policy, bounded by the delivery
 * window as its schedule-to-close timeout.
 */

const lifecycle = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [ILLEGAL_MOVE_ERROR] },
});

/**
 * A permanent error speaks for itself; anything else reached the workflow
 * because the delivery window ran out (Temporal then reports the last
 * attempt's failure, or a timeout).
 */
function reasonOf(err: unknown, windowSeconds: number): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type === PERMANENT_DELIVERY_ERROR) return cause.message;
  const last = cause instanceof TimeoutFailure ? cause.cause?.message : cause instanceof Error ? cause.message : undefined;
  return `Delivery did not succeed within ${windowSeconds} s${last ? `; last error: ${last}` : ''}.`;
}

function show(status: DocumentStatus, details: string): void {
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.documentStatus, value: status }]);
  setCurrentDetails(details);
}

export async function sendDocumentWorkflow({ documentId, deliveryWindowSeconds }: SendDocumentInput): Promise<DocumentStatus> {
  const delivery = proxyActivities<Activities>({
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

  await lifecycle.markSending(documentId);
  show('sending', 'Delivering by email (sandbox)');
  try {
    const receipt = await delivery.deliverByEmail(documentId);
    await lifecycle.markDelivered(documentId, receipt);
    show('delivered', `Delivered; Message-ID ${receipt.messageId}`);
    return 'delivered';
  } catch (err) {
    const reason = reasonOf(err, deliveryWindowSeconds);
    await lifecycle.markFailed(documentId, reason);
    show('failed', reason);
    return 'failed';
  }
}
