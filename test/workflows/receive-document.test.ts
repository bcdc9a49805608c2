import { sharedStack } from '../support/test-stack';
import { RECEIVE_SCENARIOS, runReceiveScenario } from './receive-scenarios';

const receive = (name: string) => runReceiveScenario(sharedStack().temporalAddress, RECEIVE_SCENARIOS.find((scenario) => scenario.name === name)!);

/**
 * The receive workflow against the embedded Temporal dev server, its
 * activities stubbed: filed and announced; a validator away waited for; a
 * document no retry can read filed unread at once instead of retried for ever.
 */
describe('the receive workflow', () => {
  it('when the message files, then it is announced and answered', async () => {
    const run = await receive('filed-and-announced');
    expect(run.result).toBe('received');
    expect(run.calls).toEqual(['fileReceivedDocument doc_test #1', 'announceReceivedDocument doc_test', 'planMessageLevelStatus doc_test']);
  });

  it('when the validator is away for a while, then filing is tried again and the MLS the sender asked for goes out', async () => {
    const run = await receive('validator-away-then-filed-with-mls');
    expect(run.calls.filter((call) => call.startsWith('fileReceivedDocument'))).toHaveLength(3);
    expect(run.calls).toContain('sendReplyOnPeppol');
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
});
