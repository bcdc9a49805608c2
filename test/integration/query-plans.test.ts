import { declaredIndexes, servedBy, shapeOf } from '../../store/query-shapes';
import { withStore } from '../support/accounts';

/**
 * The embedded backend really uses the indexes: for each hot query shape of
 * the service, SQLite's plan (through FerretDB's explain) searches an index
 * instead of scanning the table, and reads the order off the index instead of
 * sorting. (On MongoDB the same shapes are served by the same declared
 * indexes: store/query-shapes.ts checks every query the tests run.)
 */

interface Explained {
  queryPlanner?: { Plan?: string[] };
  filterPushdown?: boolean;
  sortPushdown?: boolean;
}

const now = new Date();

describe('query plans on the embedded FerretDB', () => {
  const shapes: [string, (store: Parameters<Parameters<typeof withStore>[0]>[0]) => { explain(): Promise<unknown> }][] =
    [
      [
        'a company’s documents, newest first',
        (store) => store.documents.find({ company_id: 'com_x', environment: 'sandbox' }).sort({ _id: -1 }).limit(21),
      ],
      [
        'the next page',
        (store) =>
          store.documents
            .find({ company_id: 'com_x', environment: 'sandbox', _id: { $lt: 'doc_y' } })
            .sort({ _id: -1 })
            .limit(21),
      ],
      [
        'by status',
        (store) =>
          store.documents
            .find({ company_id: 'com_x', environment: 'sandbox', status: 'queued' })
            .sort({ _id: -1 })
            .limit(21),
      ],
      [
        'a number the company used before',
        (store) =>
          store.documents
            .find({
              company_id: 'com_x',
              environment: 'sandbox',
              number: 'INV-1',
              type: 'invoice',
              direction: { $ne: 'received' },
              _id: { $lt: 'doc_y' },
            })
            .sort({ _id: -1 })
            .limit(1),
      ],
      ['an idempotent replay', (store) => store.documents.find({ idempotency_scope: 'sandbox:com_x:key' })],
      ['a document by id', (store) => store.documents.find({ _id: 'doc_x' })],
      ['a month’s Peppol reporting items', (store) => store.reportingItems.find({ month: '2026-10' }).sort({ _id: 1 })],
      [
        'the events feed',
        (store) =>
          store.events
            .find({ workspace_id: 'wsp_x', environment: 'sandbox', _id: { $gt: 'evt_a', $lt: 'evt_b' } })
            .sort({ _id: 1 })
            .limit(51),
      ],
      [
        'the feed by type',
        (store) =>
          store.events
            .find({ workspace_id: 'wsp_x', environment: 'sandbox', type: 'document.failed', _id: { $lt: 'evt_b' } })
            .sort({ _id: 1 })
            .limit(51),
      ],
      ['a document’s history', (store) => store.events.find({ document_id: 'doc_x' }).sort({ _id: 1 })],
      ['an event by dedupe key', (store) => store.events.find({ dedupe_key: 'doc_x:final' })],
      [
        'a workspace’s audit trail',
        (store) =>
          store.auditEvents
            .find({ workspace_id: 'wsp_x', _id: { $lt: 'aud_y' } })
            .sort({ _id: -1 })
            .limit(51),
      ],
      ['a workspace’s members', (store) => store.memberships.find({ workspace_id: 'wsp_x' }).sort({ created_at: 1 })],
      ['an account’s memberships', (store) => store.memberships.find({ account_id: 'acc_x' }).sort({ created_at: 1 })],
      [
        'an account’s keys',
        (store) => store.apiKeys.find({ account_id: 'acc_x', revoked_at: null }).sort({ created_at: 1 }),
      ],
      [
        'a key by prefix',
        (store) => store.apiKeys.find({ prefix: 'ps_test_abc...', account_id: 'acc_x', revoked_at: null }),
      ],
      ['a workspace’s companies', (store) => store.companies.find({ workspace_id: 'wsp_x' }).sort({ _id: -1 })],
      [
        'a usage period',
        (store) => store.usageDays.find({ account_id: 'acc_x', day: { $gte: '2026-11-01', $lte: '2026-11-23' } }),
      ],
      ['a rate window', (store) => store.rateSlots.find({ window: 'key:x@0' })],
      ['expired rate windows', (store) => store.rateSlots.find({ expires_at: { $lt: now } })],
      [
        'Invoice Responses never given',
        (store) =>
          store.invoiceResponses
            .find({ claimed: false, _id: { $lt: 'rsp_y' } }, { document_id: 1 })
            .sort({ _id: 1 })
            .limit(200),
      ],
      [
        'parts of documents never recorded',
        (store) =>
          store.contents.find({ _id: { $gte: 'doc_x', $lt: 'doc_y' }, submitted: true }, { _id: 1 }).limit(1000),
      ],
      ['a document’s attachments', (store) => store.attachments.find({ document_id: 'doc_x' }).sort({ position: 1 })],
    ];

  it.each(shapes)('%s: an index search, no table scan, no sort of its own', async (_name, query) => {
    const explained = (await withStore((store) => query(store).explain())) as Explained;
    const plan = explained.queryPlanner?.Plan ?? [];
    const details = plan.join('\n');
    expect(explained.filterPushdown).toBe(true);
    expect(details).toMatch(/SEARCH .* USING (INDEX|PRIMARY KEY|COVERING INDEX)/);
    expect(details).not.toMatch(/SCAN /);
    expect(details).not.toMatch(/TEMP B-TREE/);
  });
});

describe('the index rule of store/query-shapes.ts', () => {
  it('when a query starts with its equality fields and sorts on the next key, then the index serves it', () => {
    const index: [string, 1 | -1][] = [
      ['company_id', 1],
      ['environment', 1],
      ['_id', -1],
    ];
    expect(servedBy(shapeOf({ company_id: 'c', environment: 's' }, { _id: -1 }), index)).toBe(true);
    expect(servedBy(shapeOf({ company_id: 'c', environment: 's', _id: { $lt: 'x' } }, { _id: 1 }), index)).toBe(true);
    expect(servedBy(shapeOf({ company_id: 'c', environment: 's', number: 'n' }, { _id: -1 }), index)).toBe(true);
  });

  it('when a query skips a leading key, sorts on another field or mixes directions, then the index does not serve it', () => {
    const index: [string, 1 | -1][] = [
      ['company_id', 1],
      ['environment', 1],
      ['_id', -1],
    ];
    expect(servedBy(shapeOf({ environment: 's' }, { _id: -1 }), index)).toBe(false);
    expect(servedBy(shapeOf({ company_id: 'c', environment: 's' }, { created_at: -1 }), index)).toBe(false);
    expect(servedBy(shapeOf({ number: 'n' }, undefined), index)).toBe(false);
    expect(
      servedBy(shapeOf({}, { created_at: 1 }), [
        ['created_at', 1],
        ['_id', 1],
      ]),
    ).toBe(true);
    expect(
      servedBy(shapeOf({ a: 1 }, { b: 1, c: -1 }), [
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ]),
    ).toBe(false);
  });

  it('every collection declares the _id index and its unique fields', async () => {
    const [documents, events] = await withStore((store) =>
      Promise.resolve([declaredIndexes(store.documents.schema), declaredIndexes(store.events.schema)]),
    );
    expect(documents).toEqual(expect.arrayContaining([[['_id', 1]], [['idempotency_scope', 1]]]));
    expect(events).toEqual(expect.arrayContaining([[['dedupe_key', 1]]]));
  });
});
