import { webhooksReadOnce } from '../../services/webhooks/deliveries';
import type { Store } from '../../store';
import type { WebhookRow } from '../../store/webhooks';

/** A store whose webhook reads are counted, answering each with `answer()`. */
function countingStore(answer: () => Promise<Partial<WebhookRow>[]>) {
  const reads: unknown[] = [];
  const store = {
    webhooks: {
      find: (filter: unknown) => {
        reads.push(filter);
        return { sort: () => ({ lean: answer }) };
      },
    },
  } as unknown as Store;
  return { store, reads };
}

describe('the webhooks a request reads once', () => {
  it('when many events of one workspace ask, then its webhooks are read once per environment, deleted ones left out', async () => {
    const { store, reads } = countingStore(() => Promise.resolve([{ _id: 'wh_1' }, { _id: 'wh_2', deleted_at: new Date() }]));
    const webhooksOf = webhooksReadOnce(store);
    const answers = await Promise.all([webhooksOf('ws_1', 'sandbox'), webhooksOf('ws_1', 'sandbox'), webhooksOf('ws_1', 'sandbox')]);
    await webhooksOf('ws_1', 'live');
    expect(answers.map((webhooks) => webhooks.map((webhook) => webhook._id))).toEqual([['wh_1'], ['wh_1'], ['wh_1']]);
    expect(reads).toEqual([
      { workspace_id: 'ws_1', environment: 'sandbox' },
      { workspace_id: 'ws_1', environment: 'live' },
    ]);
  });

  it('when a read fails, then the next event reads again instead of keeping the failure', async () => {
    let fail = true;
    const { store, reads } = countingStore(() => (fail ? Promise.reject(new Error('database down')) : Promise.resolve([{ _id: 'wh_1' }])));
    const webhooksOf = webhooksReadOnce(store);
    await expect(webhooksOf('ws_1', 'sandbox')).rejects.toThrow('database down');
    fail = false;
    await expect(webhooksOf('ws_1', 'sandbox')).resolves.toEqual([{ _id: 'wh_1' }]);
    expect(reads).toHaveLength(2);
  });
});
