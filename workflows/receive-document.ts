import { ActivityFailure } from '@temporalio/common';
import { proxyLocalActivities, setCurrentDetails } from '@temporalio/workflow';

import type { Activities } from '../activities';
import { answerReceived } from './replies';
import { RECEIVE_FILING_WINDOW, RECEIVE_RETRY, type ReceiveDocumentInput } from './shared';

const reasonOf = (err: unknown): string => {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
};

/**
 * Local activities: run by the worker that runs the workflow and recorded as markers, they cost the Temporal
 * server a fraction of what scheduled activities do (measured by bench:as4), and both steps are a few database
 * writes and one validation, well inside a workflow task's heartbeat.
 */
const { fileReceivedDocument } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: RECEIVE_FILING_WINDOW,
  retry: RECEIVE_RETRY,
});
const { fileUnreadDocument, announceReceivedDocument, announceReceivedReply } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: RECEIVE_RETRY,
});

/**
 * One received message, one workflow (id `receive-<document id>`), started
 * once the message is stored and its receipt could go out:
 *
 *   stored ──file──▶ filed (validated by the official rules, read into the JSON view, stored as a document)
 *          ──announce──▶ announced (`document.received` event and webhooks, usage)
 *          ──answer──▶ the Message Level Status the sender asked for, and `AB` if the company acknowledges automatically
 *
 * A reply about a document we sent (an Invoice Response, a Message Level
 * Status) is filed on that document instead and announced as
 * `document.response_received` or `document.mls_received`.
 *
 * A received invoice is a legal document and is never dropped: an invalid
 * one is filed with its findings, one past the XML bounds or whose
 * validation reaches its time limit with that as its finding; a validator or
 * database that is away is waited for with backoff for a day (RECEIVE_RETRY),
 * and a filing that fails for good files the message unread, saying why.
 */
export async function receiveDocumentWorkflow({ documentId }: ReceiveDocumentInput): Promise<'received'> {
  setCurrentDetails('Validating with the official rules and reading into the JSON view');
  let filed: Awaited<ReturnType<Activities['fileReceivedDocument']>>;
  try {
    filed = await fileReceivedDocument(documentId);
  } catch (err) {
    const why = reasonOf(err);
    setCurrentDetails(`Filing failed for good (${why}); filing it unread`);
    filed = await fileUnreadDocument(documentId, why);
  }
  if (filed.reply) {
    // A reply about a document we sent: filed on it (or kept unmatched), announced as its own event.
    const what =
      filed.reply.kind === 'mls'
        ? `Message Level Status ${filed.reply.code}`
        : `Invoice Response ${filed.reply.code} about ${filed.number}`;
    setCurrentDetails(
      `${what} filed (${filed.reply.documentId ? `on ${filed.reply.documentId}` : 'matching no sent document'}); announcing`,
    );
    await announceReceivedReply(documentId, filed.reply);
    setCurrentDetails(`${what} received and announced`);
    // An Invoice Response is a business document: its sender's access point may ask for an MLS (never for an MLS).
    if (filed.reply.kind === 'invoice_response') {
      const { mls } = await answerReceived(documentId);
      if (mls) setCurrentDetails(`${what} received and announced; Message Level Status ${mls.status}`);
    }
    return 'received';
  }
  const what =
    `${filed.type === 'credit_note' ? 'Credit note' : filed.type === 'invoice' ? 'Invoice' : 'Document'} ${filed.number}`.trim();
  setCurrentDetails(
    `${what} filed (${filed.valid ? 'valid' : 'with official findings'}${filed.jsonView ? '' : ', no JSON view'}); announcing`,
  );
  await announceReceivedDocument(documentId);
  setCurrentDetails(`${what} received and announced`);
  const { mls, acknowledgement } = await answerReceived(documentId);
  const said = [
    mls && `Message Level Status ${mls.status}`,
    acknowledgement && `acknowledged (${acknowledgement})`,
  ].filter(Boolean);
  if (said.length > 0) setCurrentDetails(`${what} received and announced; ${said.join('; ')}`);
  return 'received';
}
