import { addCredits, operatorActor } from '../../services/operator/workspaces';
import { sendWorkflowId, type SendDocumentInput } from '../../workflows/shared';
import { validFixtures } from '../fixtures/documents';
import { callAs, withStore } from '../support/accounts';
import { liveSender, postLive } from '../support/documents';
import { sharedTemporalClient } from '../support/temporal';

const temporal = sharedTemporalClient();

/** The input a document's send workflow started with, as its history holds it. */
async function sendInputOf(documentId: string): Promise<SendDocumentInput> {
  const history = await temporal().workflow.getHandle(sendWorkflowId(documentId)).fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const payload = started?.input?.payloads?.[0]?.data;
  return JSON.parse(Buffer.from(payload!).toString('utf8')) as SendDocumentInput;
}

/**
 * The delivery window a document's workflow is given follows its environment: an hour for a sandbox email
 * (DELIVERY_WINDOW_SECONDS), three days for a live delivery on Peppol (LIVE_DELIVERY_WINDOW_SECONDS), the shared
 * stack running with the defaults. What each window does is time-skipping.test.ts's.
 */
describe('delivery windows', () => {
  it('when a sandbox and a live document are posted, then the sandbox one is retried for an hour and the live one for three days', async () => {
    const sender = await liveSender();
    await withStore((store) => addCredits(store, operatorActor('test'), sender.workspaceId, '5.00'));
    const body = { ...validFixtures[0]!.body, company_id: sender.companyId };
    const sandbox = await callAs(sender.key, '/v1/documents', {
      method: 'POST',
      body: { ...body, number: 'WINDOW-SANDBOX' },
    });
    const live = await postLive(sender.liveKey, { ...body, number: 'WINDOW-LIVE' });
    expect([sandbox.status, live.status]).toEqual([202, 202]);
    expect((await sendInputOf(sandbox.body.id)).deliveryWindowSeconds).toBe(3600);
    expect((await sendInputOf(live.body.id)).deliveryWindowSeconds).toBe(3 * 24 * 3600);
  });
});
