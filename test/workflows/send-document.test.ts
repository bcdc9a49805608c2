import { sharedStack } from '../support/test-stack';
import { REFUSAL, RULE_SET, runScenario, SCENARIOS } from './scenarios';

const scenario = (name: string) => SCENARIOS.find((candidate) => candidate.name === name)!;

/**
 * The send workflow against the embedded Temporal dev server, its activities
 * stubbed: the lifecycle order, retries by the activity retry policy, and the
 * delivery window, in seconds rather than minutes (the configured windows run
 * on the time-skipping test server: time-skipping.test.ts).
 */
describe('the send workflow', () => {
  const address = () => sharedStack().temporalAddress;

  it('when the official rules accept and delivery succeeds, then it validates (rendering the PDF), moves the document to sending with the rule set, delivers once and marks it delivered', async () => {
    const run = await runScenario(address(), scenario('delivered'));
    expect(run.result).toBe('delivered');
    expect(run.calls).toEqual([
      'recordAcceptance doc_test',
      'validateForSending doc_test #1',
      `markSending doc_test ${RULE_SET}`,
      'deliverByEmail doc_test #1',
      'markDelivered doc_test <doc_test@einvoice.localhost>',
    ]);
    expect(run.statusAttribute).toBe('delivered');
    // The moves are local activities; validation with the PDF, and delivery, are activities: three workflow tasks
    // and two activity tasks in all. Search attributes, each a write to visibility: the status once per change
    // after the start's queued (sending, delivered), and no patch marker's (none is left to write one).
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED')).toHaveLength(3);
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toHaveLength(2);
    expect(run.eventTypes.filter((type) => type === 'EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES')).toHaveLength(2);
  });

  it('when it is started with the acceptance (Update-with-Start), then its first step records the document and the update answers with that outcome in the first workflow task, before the validation runs', async () => {
    const run = await runScenario(address(), scenario('delivered'));
    expect(run.accepted).toEqual({ outcome: 'accepted', documentId: 'doc_test', balanceUnits: null });
    expect(run.calls[0]).toBe('recordAcceptance doc_test');
    const updateAccepted = run.eventTypes.indexOf('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
    const updateCompleted = run.eventTypes.indexOf('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED');
    expect(updateAccepted).toBeGreaterThan(0);
    expect(updateCompleted).toBeGreaterThan(updateAccepted);
    // The first step is a local activity (its marker); the update is answered in the workflow task that ran it.
    expect(updateCompleted).toBeGreaterThan(run.eventTypes.indexOf('EVENT_TYPE_MARKER_RECORDED'));
    expect(
      run.eventTypes.slice(0, updateCompleted).filter((type) => type === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED'),
    ).toHaveLength(1);
  });

  it('when its first step finds the idempotency key used by an earlier request, then the update answers with that document and the workflow ends without validating or sending', async () => {
    const run = await runScenario(address(), scenario('not-recorded-repeated-key'));
    expect(run.accepted).toEqual({ outcome: 'repeat', documentId: 'doc_first' });
    expect(run.result).toBe('not recorded');
    expect(run.calls).toEqual(['recordAcceptance doc_test']);
  });

  it('when attempts fail for a while, then the retry policy tries again with backoff and the document is delivered', async () => {
    const run = await runScenario(address(), scenario('retried-then-delivered'));
    expect(run.result).toBe('delivered');
    expect(run.calls.filter((call) => call.startsWith('deliverByEmail'))).toHaveLength(3);
    expect(run.calls.at(-1)).toMatch(/^markDelivered/);
    // 1 s, then 2 s of backoff.
    expect(run.seconds).toBeGreaterThanOrEqual(3);
  });

  it('when delivery fails permanently, then there is no second attempt and the document fails with the reason', async () => {
    const run = await runScenario(address(), scenario('permanent-failure'));
    expect(run.result).toBe('failed');
    expect(run.calls).toEqual([
      'recordAcceptance doc_test',
      'validateForSending doc_test #1',
      `markSending doc_test ${RULE_SET}`,
      'deliverByEmail doc_test #1',
      'markFailed doc_test',
    ]);
    expect(run.failedWith).toBe('The mail server refused the message: 550 no such mailbox');
    expect(run.statusAttribute).toBe('failed');
  });

  it('when the official rules refuse the document, then it fails with their findings and the rule set, and no delivery is attempted', async () => {
    const run = await runScenario(address(), scenario('refused-by-official-rules'));
    expect(run.result).toBe('failed');
    expect(run.calls).toEqual([
      'recordAcceptance doc_test',
      'validateForSending doc_test #1',
      `markFailed doc_test ${RULE_SET}`,
    ]);
    expect(run.failedWith).toBe(REFUSAL);
    expect(run.statusAttribute).toBe('failed');
  });

  it('when the validator does not answer, then the retry policy asks again and the document goes on once it answers', async () => {
    const run = await runScenario(address(), scenario('validator-unavailable-then-accepts'));
    expect(run.result).toBe('delivered');
    expect(run.calls.slice(0, 4)).toEqual([
      'recordAcceptance doc_test',
      'validateForSending doc_test #1',
      'validateForSending doc_test #2',
      `markSending doc_test ${RULE_SET}`,
    ]);
  });

  it('when the delivery window runs out, then the document fails naming the window and the last error', async () => {
    const run = await runScenario(address(), scenario('window-ran-out'));
    expect(run.result).toBe('failed');
    expect(run.failedWith).toMatch(
      /^Delivery did not succeed within 3 s; last error: connection refused \(attempt \d\)\.$/,
    );
    expect(run.calls.filter((call) => call.startsWith('deliverByEmail')).length).toBeGreaterThanOrEqual(2);
    expect(run.seconds).toBeLessThan(10);
  });

  it('when a live document is sent, then it goes by the Peppol channel, its attempts retried by the same policy, never by email', async () => {
    const run = await runScenario(address(), scenario('live-retried-then-delivered-on-peppol'));
    expect(run.result).toBe('delivered');
    expect(run.calls).toEqual([
      'recordAcceptance doc_test',
      'validateForSending doc_test #1',
      `markSending doc_test ${RULE_SET}`,
      'deliverOnPeppol doc_test #1',
      'deliverOnPeppol doc_test #2',
      'markDelivered doc_test <doc_test@einvoice.localhost>',
    ]);
  });

  it('when the receiver cannot take a live document, then it fails at once with that reason', async () => {
    const run = await runScenario(address(), scenario('live-receiver-cannot-receive'));
    expect(run.result).toBe('failed');
    expect(run.calls.filter((call) => call.startsWith('deliverOnPeppol'))).toHaveLength(1);
    expect(run.failedWith).toMatch(/^The receiver 0106:12345678 cannot receive BIS Billing 3.0 credit notes on Peppol/);
  });

  it('when the sender asked for the PDF to be attached, then it is embedded before the official validation judges the UBL', async () => {
    const run = await runScenario(address(), scenario('delivered-with-rendered-pdf'));
    expect(run.result).toBe('delivered');
    expect(run.calls).toEqual([
      'recordAcceptance doc_test',
      'embedRenderedPdf doc_test',
      'validateForSending doc_test #1',
      `markSending doc_test ${RULE_SET}`,
      'deliverByEmail doc_test #1',
      'markDelivered doc_test <doc_test@einvoice.localhost>',
    ]);
  });

  it('when the PDF for the sandbox email cannot be rendered, then the email goes with the UBL only and the document is delivered', async () => {
    const run = await runScenario(address(), scenario('delivered-without-a-readable-pdf'));
    expect(run.result).toBe('delivered');
    expect(run.calls.slice(2)).toEqual([
      `markSending doc_test ${RULE_SET}`,
      'deliverByEmail doc_test #1',
      'markDelivered doc_test <doc_test@einvoice.localhost>',
    ]);
  });
});
