import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/common';
import { patched, proxyActivities, proxyLocalActivities, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { TRANSITIONS, type DocumentStatus } from '../domain/documents/lifecycle';
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

const MOVE_RETRY = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [ILLEGAL_MOVE_ERROR] };

/**
 * Workflows started before the moves became local activities ran them as
 * ordinary ones; replaying their histories must take the same path.
 */
const LOCAL_MOVES_PATCH = 'lifecycle-moves-as-local-activities';
/** Workflows started before the validating step existed go straight to sending. */
const OFFICIAL_VALIDATION_PATCH = 'official-validation-before-sending';
/** Workflows started before `attach_pdf` existed never embed a rendering. */
const RENDERED_PDF_PATCH = 'rendered-pdf-before-validation';
/** Workflows started before the sandbox email carried the PDF deliver without rendering one. */
const READABLE_PDF_PATCH = 'readable-pdf-before-the-email';
/**
 * The PDF is a reading aid, never worth delaying the delivery for: one attempt, bounded by the
 * renderer's own limit (READABLE_PDF_LIMIT_MS, 10 s with its queue) and a margin; past it the email
 * carries the UBL only.
 */
const READABLE_PDF_TIMEOUT = '15 seconds';
/**
 * Workflows started before validation and the email's PDF became one step rendered the PDF in a step of its own
 * after the move to sending, and wrote the status search attribute at every step, also unchanged.
 */
const ONE_STEP_BEFORE_SENDING_PATCH = 'validation-and-readable-pdf-in-one-step';
/** Workflows started before live delivery existed send every document by email. */
const PEPPOL_DELIVERY_PATCH = 'live-documents-on-peppol';
const localMoves = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: MOVE_RETRY });
const remoteMoves = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: MOVE_RETRY });

/**
 * A permanent error speaks for itself; anything else reached the workflow
 * because the delivery window ran out (Temporal then reports the last
 * attempt's failure, or a timeout).
 */
export function reasonOf(err: unknown, windowSeconds: number, what = 'Delivery'): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type === PERMANENT_DELIVERY_ERROR) return cause.message;
  const last = cause instanceof TimeoutFailure ? cause.cause?.message : cause instanceof Error ? cause.message : undefined;
  return `${what} did not succeed within ${windowSeconds} s${last ? `; last error: ${last}` : ''}.`;
}

/**
 * What the Web UI shows of a document: its status as a search attribute, and what the workflow is doing as its
 * current details. `shown` is the status the attribute already has (the start's `queued`); workflows started
 * before ONE_STEP_BEFORE_SENDING_PATCH pass none and write it at every step.
 */
function statusDisplay(shown?: DocumentStatus) {
  return (status: DocumentStatus, details: string): void => {
    if (status !== shown) upsertSearchAttributes([{ key: SEARCH_ATTRIBUTES.documentStatus, value: status }]);
    if (shown !== undefined) shown = status;
    setCurrentDetails(details);
  };
}

export async function sendDocumentWorkflow({ documentId, deliveryWindowSeconds, attachPdf }: SendDocumentInput): Promise<DocumentStatus> {
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

  // The newest change implies every earlier one, so a workflow started since records one patch marker, not
  // five: the SDK writes each marker's search attribute (TemporalChangeVersion) to visibility, a write apiece.
  const oneStep = patched(ONE_STEP_BEFORE_SENDING_PATCH);
  const has = (patch: string) => oneStep || patched(patch);
  const lifecycle = has(LOCAL_MOVES_PATCH) ? localMoves : remoteMoves;
  const show = statusDisplay(oneStep ? TRANSITIONS.accept.to : undefined);
  let ruleSet: string | undefined;
  if (has(OFFICIAL_VALIDATION_PATCH)) {
    show(TRANSITIONS.accept.to, 'Validating with the official Peppol rules');
    const validation = proxyActivities<Activities>({
      startToCloseTimeout: '2 minutes',
      scheduleToCloseTimeout: `${deliveryWindowSeconds} seconds`,
      retry: { initialInterval: DELIVERY_RETRY.initialIntervalMs, backoffCoefficient: DELIVERY_RETRY.backoffCoefficient, maximumInterval: DELIVERY_RETRY.maximumIntervalMs },
    });
    let verdict: { ruleSet: string; refusal: string | null };
    try {
      if (attachPdf && has(RENDERED_PDF_PATCH)) {
        show(TRANSITIONS.accept.to, 'Rendering the PDF to attach');
        await validation.embedRenderedPdf(documentId);
        show(TRANSITIONS.accept.to, 'Validating with the official Peppol rules');
      }
      verdict = oneStep ? await validation.validateForSending(documentId) : await validation.validateOfficially(documentId);
    } catch (err) {
      const reason = reasonOf(err, deliveryWindowSeconds, 'Official validation');
      await lifecycle.markFailed(documentId, reason);
      show(TRANSITIONS.fail.to, reason);
      return TRANSITIONS.fail.to;
    }
    if (verdict.refusal !== null) {
      await lifecycle.markFailed(documentId, verdict.refusal, verdict.ruleSet);
      show(TRANSITIONS.fail.to, verdict.refusal);
      return TRANSITIONS.fail.to;
    }
    ruleSet = verdict.ruleSet;
  }
  const sending = await lifecycle.markSending(documentId, ruleSet);
  const channel = has(PEPPOL_DELIVERY_PATCH) ? sending.channel : 'email';
  if (channel === 'email' && !oneStep && patched(READABLE_PDF_PATCH)) {
    show(TRANSITIONS.send.to, 'Rendering the PDF the email carries');
    await renderReadablePdf(documentId);
  }
  show(TRANSITIONS.send.to, channel === 'peppol' ? 'Delivering on the Peppol network (AS4)' : 'Delivering by email (sandbox)');
  try {
    const receipt = channel === 'peppol' ? await delivery.deliverOnPeppol(documentId) : await delivery.deliverByEmail(documentId);
    await lifecycle.markDelivered(documentId, receipt);
    show(TRANSITIONS.deliver.to, receipt.description ?? `Delivered; Message-ID ${receipt.messageId}`);
    return TRANSITIONS.deliver.to;
  } catch (err) {
    const reason = reasonOf(err, deliveryWindowSeconds);
    await lifecycle.markFailed(documentId, reason);
    show(TRANSITIONS.fail.to, reason);
    return TRANSITIONS.fail.to;
  }
}

/** Renders the sandbox email's PDF in a step of its own (workflows started before ONE_STEP_BEFORE_SENDING_PATCH). */
async function renderReadablePdf(documentId: string): Promise<void> {
  const rendering = proxyActivities<Activities>({ startToCloseTimeout: READABLE_PDF_TIMEOUT, retry: { maximumAttempts: 1 } });
  try {
    await rendering.renderReadablePdf(documentId);
  } catch {
    // The UBL is the document; its reading is not worth failing or delaying the delivery for.
  }
}
