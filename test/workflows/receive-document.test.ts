import { sharedStack } from '../support/test-stack';
import { RECEIVE_SCENARIOS, runReceiveScenario } from './receive-scenarios';

const receive = (name: string) =>
  runReceiveScenario(
    sharedStack().temporalAddress,
    RECEIVE_SCENARIOS.find((scenario) => scenario.name === name)!,
  );

/**
 * The receive workflow against the embedded Temporal dev server, its
 * activities stubbed: filed and announced; a validator away waited for; a
 * document no retry can read filed unread at once instead of retried for ever;
 * answered with the MLS and the automatic AB; a reply about a document we
 * sent (the reply branch) announced on it, an Invoice Response answered with
 * the MLS its sender asked for and an MLS with none.
 */
describe('the receive workflow', () => {
  it('when the message files, then it is announced and answered', async () => {
    const run = await receive('filed-and-announced');
    expect(run.result).toBe('received');
    expect(run.calls).toEqual([
      'fileReceivedDocument doc_test #1',
      'announceReceivedDocument doc_test',
      'planMessageLevelStatus doc_test',
    ]);
  });

  it('when the validator is away for a while, then filing is tried again and the MLS the sender asked for goes out', async () => {
    const run = await receive('validator-away-then-filed-with-mls');
    expect(run.calls.filter((call) => call.startsWith('fileReceivedDocument'))).toHaveLength(3);
    expect(run.calls).toContain('sendReplyOnPeppol mls');
  });

  it('when filing fails in a way the same document always fails, then it is not tried again: the message is filed unread with why, and announced', async () => {
    const run = await receive('unreadable-filed-unread');
    expect(run.result).toBe('received');
    expect(run.calls).toEqual([
      'fileReceivedDocument doc_test #1',
      'fileUnreadDocument doc_test (Maximum call stack size exceeded)',
      'announceReceivedDocument doc_test',
      'planMessageLevelStatus doc_test',
    ]);
  });

  it('when the company acknowledges automatically and the sender asked for an MLS, then both answers go out after the announcement, the acknowledgement by a child workflow of its own', async () => {
    const run = await receive('filed-acknowledged-with-mls');
    expect(run.result).toBe('received');
    expect(run.sent).toBe('sent');
    expect(run.calls.slice(0, 2)).toEqual(['fileReceivedDocument doc_test #1', 'announceReceivedDocument doc_test']);
    // The MLS and the acknowledgement run side by side; the acknowledgement is drafted, then its child workflow claims and sends it.
    const rest = run.calls.slice(2);
    expect([...rest].sort()).toEqual([
      'acknowledgeOnReceipt doc_test',
      'claimInvoiceResponse rsp_test',
      'planMessageLevelStatus doc_test',
      'recordReplyOutcome invoice_response sent',
      'recordReplyOutcome mls sent',
      'sendReplyOnPeppol invoice_response',
      'sendReplyOnPeppol mls',
    ]);
    expect(rest.indexOf('acknowledgeOnReceipt doc_test')).toBeLessThan(rest.indexOf('claimInvoiceResponse rsp_test'));
    expect(rest.indexOf('claimInvoiceResponse rsp_test')).toBeLessThan(
      rest.indexOf('sendReplyOnPeppol invoice_response'),
    );
  });

  it('when the message is an Invoice Response about a document we sent, then it is announced on that document and answered with the MLS its sender asked for', async () => {
    const run = await receive('invoice-response-announced-with-mls');
    expect(run.result).toBe('received');
    expect(run.calls).toEqual([
      'fileReceivedDocument doc_test #1',
      'announceReceivedReply doc_test (invoice_response on doc_sent)',
      'planMessageLevelStatus doc_test',
      'sendReplyOnPeppol mls',
      'recordReplyOutcome mls sent',
    ]);
  });

  it('when the message is an MLS about a document we sent, then it is announced on that document and never answered', async () => {
    const run = await receive('mls-announced');
    expect(run.result).toBe('received');
    expect(run.calls).toEqual(['fileReceivedDocument doc_test #1', 'announceReceivedReply doc_test (mls on doc_sent)']);
  });
});
