import type { receiveDocumentWorkflow } from '../../workflows/receive-document';
import { responseWorkflowId, type ResponseSendStart } from '../../workflows/shared';
import { recorderOnce, runOnOwnWorker } from './own-worker';

/**
 * The receive workflow with its activities stubbed, on a real Temporal
 * server: each scenario scripts what filing does (files it, fails a while,
 * fails in a way no retry mends) and what the message was (a document, or a
 * reply about one we sent: an Invoice Response, an MLS); the run records the
 * calls (the recorder keeps the history for the replay test).
 */

export interface ReceiveScenario {
  name: string;
  /** What filing attempt n (1-based) does. */
  filing: (n: number) => 'file' | 'unavailable' | 'unreadable';
  /** Whether the sender asked for a Message Level Status. */
  mls?: boolean;
  /** The message was a reply about a document we sent, filed on it: the reply branch. */
  reply?: 'invoice_response' | 'mls';
  /** The company acknowledges automatically: the Invoice Response `AB` it gave. */
  acknowledged?: boolean;
}

export const RECEIVE_SCENARIOS: ReceiveScenario[] = [
  { name: 'filed-and-announced', filing: () => 'file' },
  { name: 'validator-away-then-filed-with-mls', filing: (n) => (n <= 2 ? 'unavailable' : 'file'), mls: true },
  { name: 'unreadable-filed-unread', filing: () => 'unreadable' },
  { name: 'filed-acknowledged-with-mls', filing: () => 'file', mls: true, acknowledged: true },
  { name: 'invoice-response-announced-with-mls', filing: () => 'file', reply: 'invoice_response', mls: true },
  { name: 'mls-announced', filing: () => 'file', reply: 'mls' },
];

/** The history of the acknowledgement's send workflow, recorded with the scenario that acknowledges. */
export const SEND_RESPONSE_HISTORY = 'send-response-acknowledgement-sent';

const FILED = { type: 'invoice', number: 'INV-1', valid: true, jsonView: true };
/** What filing a reply returns: the reply, filed on the sent document it answers. */
const filedReply = (kind: 'invoice_response' | 'mls') => ({
  type: 'other',
  number: kind === 'mls' ? '' : 'INV-7',
  valid: true,
  jsonView: false,
  reply: { kind, documentId: 'doc_sent', code: 'AP' },
});

export async function runReceiveScenario(temporalAddress: string, scenario: ReceiveScenario) {
  const calls: string[] = [];
  const recordOnce = recorderOnce(calls);
  let attempts = 0;
  // A response's workflow id is never reused: each run gives one of its own.
  const acknowledgement: ResponseSendStart = {
    input: { responseId: `rsp_test${Date.now()}`, previousResponseId: null, deliveryWindowSeconds: 60 },
    documentId: 'doc_test',
    companyId: 'com_test',
    workspaceId: 'wsp_test',
    environment: 'live',
    summary: 'Invoice Response AB to the test seller about INV-1 (live)',
  };
  const activities = {
    fileReceivedDocument: (documentId: string) => {
      attempts += 1;
      calls.push(`fileReceivedDocument ${documentId} #${attempts}`);
      const outcome = scenario.filing(attempts);
      if (outcome === 'unavailable') return Promise.reject(new Error('the official validator did not answer'));
      // What a reader raises on a document it cannot take: the same every time.
      if (outcome === 'unreadable') return Promise.reject(new RangeError('Maximum call stack size exceeded'));
      return Promise.resolve(scenario.reply ? filedReply(scenario.reply) : FILED);
    },
    fileUnreadDocument: (documentId: string, why: string) =>
      recordOnce(`fileUnreadDocument ${documentId} (${why})`).then(() => ({
        type: 'other',
        number: '',
        valid: false,
        jsonView: false,
      })),
    announceReceivedDocument: (documentId: string) => recordOnce(`announceReceivedDocument ${documentId}`),
    announceReceivedReply: (documentId: string, reply: { kind: string; documentId: string | null }) =>
      recordOnce(`announceReceivedReply ${documentId} (${reply.kind} on ${reply.documentId})`),
    planMessageLevelStatus: (documentId: string) => {
      calls.push(`planMessageLevelStatus ${documentId}`);
      return Promise.resolve(scenario.mls ? { kind: 'mls', id: 'mls_test' } : null);
    },
    validateReply: () => Promise.resolve({ refusal: null, channel: 'peppol' }),
    sendReplyOnPeppol: (reply: { kind: string }) =>
      Promise.resolve(void calls.push(`sendReplyOnPeppol ${reply.kind}`)).then(() => ({
        status: 'sent',
        messageId: 'mls-message',
        description: 'receipted',
      })),
    recordReplyOutcome: (reply: { kind: string }, outcome: { status: string }) =>
      recordOnce(`recordReplyOutcome ${reply.kind} ${outcome.status}`),
    acknowledgeOnReceipt: (documentId: string) => {
      // Recorded only when it gives a response: it runs beside the MLS, in either order.
      if (!scenario.acknowledged) return Promise.resolve(null);
      calls.push(`acknowledgeOnReceipt ${documentId}`);
      return Promise.resolve(acknowledgement);
    },
    claimInvoiceResponse: (responseId: string) =>
      recordOnce(
        `claimInvoiceResponse ${responseId === acknowledgement.input.responseId ? 'rsp_test' : responseId}`,
      ).then(() => ({ given: true })),
  };
  return runOnOwnWorker(
    temporalAddress,
    `receive-test-${scenario.name}`,
    activities,
    (client, run) =>
      client.workflow.start<typeof receiveDocumentWorkflow>('receiveDocumentWorkflow', {
        ...run,
        args: [{ documentId: 'doc_test' }],
      }),
    async (handle, result) => {
      // The acknowledgement's own workflow, the receive workflow's child, outlives it: its end is awaited here.
      const acknowledgementWorkflowId = scenario.acknowledged
        ? responseWorkflowId(acknowledgement.input.responseId)
        : null;
      const sent = acknowledgementWorkflowId ? await handle.client.getHandle(acknowledgementWorkflowId).result() : null;
      return { result, calls, sent, workflowId: handle.workflowId, acknowledgementWorkflowId };
    },
  );
}
