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

function reasonOf(err: unknown, windowSeconds: number): string {
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    if (cause instanceof TimeoutFailure) {
      const last = cause.cause?.message;
      return `Delivery did not succeed within ${windowSeconds} s${last ? `; last error: ${last}` : ''}.`;
    }
    if (cause instanceof ApplicationFailure) return cause.message;
    if (cause) return cause.message;
  }
  return err instanceof Error ? err.message : String(err);
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
