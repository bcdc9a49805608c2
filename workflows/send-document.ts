import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { proxyActivities, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { SEARCH_ATTRIBUTES, type SendDocumentInput } from './shared';

/**
 * One document, one workflow (id `send-<document id>`):
 *
 *   queued ──markSending──▶ sending ──deliver──▶ delivered
 *                              │
 *                              └── permanent error, or the delivery window ends ──▶ failed
 *
 * Transient delivery errors are retried by the activity's retry policy with
 * exponential backoff for at most the delivery window; permanent ones
 * (PermanentDeliveryError) fail at once. Bookkeeping activities (the state
 * moves) retry until the database answers.
 */

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * A permanent error speaks for itself; anything else reached the workflow
 * because the delivery window ran out (Temporal then reports the last
 * attempt's failure, or a timeout).
 */
function reasonOf(err: unknown, windowSeconds: number): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type === 'PermanentDeliveryError') return cause.message;
  const last = cause instanceof TimeoutFailure ? cause.cause?.message : cause instanceof Error ? cause.message : undefined;
  return `Delivery did not succeed within ${windowSeconds} s${last ? `; last error: ${last}` : ''}.`;
}

function show(status: 'sending' | 'delivered' | 'failed', details: string): void {
  upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.documentStatus, value: status }]);
  setCurrentDetails(details);
}

export async function sendDocumentWorkflow({ documentId, deliveryWindowSeconds }: SendDocumentInput): Promise<'delivered' | 'failed'> {
  const { deliverByEmail } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: `${deliveryWindowSeconds} seconds`,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', nonRetryableErrorTypes: ['PermanentDeliveryError'] },
  });

  await bookkeeping.markSending(documentId);
  show('sending', 'Delivering by email (sandbox)');
  try {
    const messageId = await deliverByEmail(documentId);
    await bookkeeping.markDelivered(documentId);
    show('delivered', `Delivered; Message-ID ${messageId}`);
    return 'delivered';
  } catch (err) {
    const reason = reasonOf(err, deliveryWindowSeconds);
    await bookkeeping.markFailed(documentId, reason);
    show('failed', reason);
    return 'failed';
  }
}
