import { randomBytes } from 'node:crypto';

import { newSortableId } from '../../domain/ids';
import { withStore } from '../support/accounts';
import { ops } from '../support/ops';
import { scrape, valueOf } from '../support/prometheus';
import { until } from '../support/until';
import { sharedStack } from '../support/test-stack';

/** Each ops command is a Node process of its own: on a busy machine a few take more than the default. */
jest.setTimeout(120_000);

/**
 * `ops stuck` and the `einvoice_stuck_work` gauge on the shared stack: one
 * piece of each kind of work, written as a workflow that never ran would
 * leave it (its last move 20 minutes ago, marked started so no reconciler
 * takes it up), is listed with its workflow id, longest waiting first, and
 * counted; a longer threshold leaves it out. The workspace id they carry
 * holds a line feed, which the table shows escaped.
 */

const WAITED_MS = 20 * 60_000;
const workspaceId = `wsp_stuck${randomBytes(4).toString('hex')}\nforged row`;
const since = new Date(Date.now() - WAITED_MS);
const ids = {
  sent: newSortableId('document', since.getTime()),
  receiving: newSortableId('document', since.getTime() + 1_000),
  response: newSortableId('invoiceResponse', since.getTime()),
  // A Message Level Status has the id of the received document it answers.
  mls: newSortableId('document', since.getTime() + 2_500),
  delivery: newSortableId('webhookDelivery', since.getTime()),
};

beforeAll(() =>
  withStore(async (store) => {
    const owner = { company_id: 'com_stuck', workspace_id: workspaceId, environment: 'sandbox' as const };
    await store.documents.create({
      _id: ids.sent,
      ...owner,
      account_id: 'acc_stuck',
      key_prefix: 'sk_test',
      type: 'invoice',
      number: 'STUCK-1',
      issue_date: '2026-11-25',
      status: 'sending',
      idempotency_scope: `sandbox:com_stuck:doc:${ids.sent}`,
      currency: 'EUR',
      created_at: since,
      updated_at: since,
    });
    await store.receivedMessages.create({
      _id: ids.receiving,
      ...owner,
      message_key: `sandbox:${ids.receiving}`,
      message_id: `${ids.receiving}@stuck`,
      source: 'sandbox',
      receiver_id: '0208:0987654394',
      payload: Buffer.from('<Invoice/>'),
      received_at: new Date(since.getTime() + 1_000),
      dispatched: true,
      filed: false,
    });
    await store.invoiceResponses.create({
      _id: ids.response,
      ...owner,
      direction: 'sent',
      code: 'AP',
      status: 'queued',
      referenced_number: 'STUCK-0',
      ubl: '<ApplicationResponse/>',
      created_at: since,
      updated_at: new Date(since.getTime() + 2_000),
    });
    await store.messageLevelStatuses.create({
      _id: ids.mls,
      ...owner,
      code: 'AB',
      sender_id: '0242:POX000001',
      receiver_id: '0242:POX000002',
      referenced_instance_id: 'stuck-instance',
      country_c1: 'BE',
      ubl: '<ApplicationResponse/>',
      status: 'queued',
      created_at: since,
      updated_at: new Date(since.getTime() + 2_500),
    });
    await store.deliveries.create({
      _id: ids.delivery,
      dedupe_key: `evt_stuck:${ids.delivery}`,
      webhook_id: 'whk_stuck',
      workspace_id: workspaceId,
      event_id: newSortableId('event', since.getTime()),
      event_type: 'document.delivered',
      body: '{}',
      status: 'pending',
      next_attempt_at: since,
      created_at: since,
      updated_at: new Date(since.getTime() + 3_000),
    });
  }),
);

afterAll(() =>
  withStore(async (store) => {
    await store.documents.deleteOne({ _id: ids.sent });
    await store.receivedMessages.deleteOne({ _id: ids.receiving });
    await store.invoiceResponses.deleteOne({ _id: ids.response });
    await store.messageLevelStatuses.deleteOne({ _id: ids.mls });
    await store.deliveries.deleteOne({ _id: ids.delivery });
  }),
);

describe('ops stuck', () => {
  it('when work has not moved for 20 minutes, then it is listed longest waiting first with the workflow to open, its customer-held values escaped, and counted by kind', async () => {
    const listed = await ops('stuck');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout.split('\n');
    const row = (id: string) => lines.find((line) => line.includes(id)) ?? '';
    expect(row(ids.sent)).toMatch(
      new RegExp(
        `^document\\s+${ids.sent}  sending\\s+${since.toISOString()}\\s+2\\d min  send-${ids.sent}  wsp_stuck[0-9a-f]{8}\\\\nforged row$`,
      ),
    );
    expect(row(ids.receiving)).toContain(`  receiving  `);
    expect(row(ids.receiving)).toContain(`  receive-${ids.receiving}  `);
    expect(row(ids.response)).toMatch(
      new RegExp(`^invoice_response\\s+${ids.response}  queued .*  response-${ids.response}  `),
    );
    expect(row(ids.mls)).toMatch(new RegExp(`^mls\\s+${ids.mls}  queued .*  receive-${ids.mls}  `));
    expect(row(ids.delivery)).toMatch(
      new RegExp(`^webhook_delivery\\s+${ids.delivery}  pending .*  webhook-endpoint-whk_stuck  `),
    );
    const order = Object.values(ids).map((id) => lines.findIndex((line) => line.includes(id)));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(lines.filter((line) => line.startsWith('forged row'))).toEqual([]);
    expect(lines.at(-2)).toMatch(
      /^\d+ documents, \d+ Invoice Responses, \d+ Message Level Statuses, \d+ webhook deliveries have not moved for over 900 s/,
    );

    const stuck = await until(
      'the stuck work counted',
      () => scrape(sharedStack().metrics.api),
      (api) => valueOf(api, 'einvoice_stuck_work', { kind: 'document' }) >= 2,
    );
    expect(valueOf(stuck, 'einvoice_stuck_work', { kind: 'invoice_response' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(stuck, 'einvoice_stuck_work', { kind: 'mls' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(stuck, 'einvoice_stuck_work', { kind: 'webhook_delivery' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(stuck, 'einvoice_documents_oldest_age_seconds', { status: 'receiving' })).toBeGreaterThanOrEqual(
      WAITED_MS / 1000,
    );
  });

  it('when the threshold is longer than the wait, then none of it is listed; a threshold that is not a whole number of seconds is a usage error', async () => {
    const listed = await ops('stuck', '--older-than', '3600');
    expect(listed.code).toBe(0);
    for (const id of Object.values(ids)) expect(listed.stdout).not.toContain(id);
    expect(listed.stdout).toMatch(/have not moved for over 3600 s/);

    const wrong = await ops('stuck', '--older-than', 'soon');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('stuck takes --older-than <seconds>');
  });
});
