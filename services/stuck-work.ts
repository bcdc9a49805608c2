import { TRANSITIONS } from '../domain/documents/lifecycle';
import type { WorkReading } from '../platform/metrics';
import { validatorLanes } from '../platform/official-validator';
import type { Store } from '../store';
import { receiveWorkflowId, responseWorkflowId, sendWorkflowId, webhookEndpointWorkflowId } from '../workflows/shared';

/**
 * Work the service moves on by itself, each piece under a workflow of its
 * own: a sent document queued or sending, a received message until it is
 * filed (`receiving`), an Invoice Response or a Message Level Status being
 * sent, a webhook delivery pending. One that has not moved for longer than
 * a threshold is stuck: its workflow keeps failing or waiting, or never
 * started. `ops stuck` lists
 * them with the workflow to open in the Web UI; the API's metrics count
 * them. Every query is served by an index (on `status` or `filed`, then the
 * time the row last moved), so a scrape costs the same however much is stored.
 */

/** What `ops stuck` and the `einvoice_stuck_work` gauge call stuck by default. */
export const STUCK_AFTER_MS = 15 * 60_000;

type StuckKind = 'document' | 'invoice_response' | 'mls' | 'webhook_delivery';

interface StuckItem {
  kind: StuckKind;
  id: string;
  /** queued, sending or receiving (a document), queued (a reply), pending (a delivery). */
  status: string;
  workspaceId: string;
  /** When it last moved. */
  since: Date;
  workflowId: string;
}

/** The statuses a document leaves by itself: those a lifecycle move starts from (queued, sending). */
const MOVING_STATUSES = [...new Set(Object.values(TRANSITIONS).flatMap((transition) => transition.from))];
/** A received message not yet filed; not a status of the document, which exists only once filed. */
const RECEIVING = 'receiving';

/** What a waiting row must have for the list; `status` is absent where the kind has one fixed. */
interface WaitingRow {
  _id: string;
  workspace_id: string;
  status?: string;
  updated_at?: Date;
  received_at?: Date;
  webhook_id?: string;
}

/** The part of a mongoose model the queries use: one collection's rows that wait. */
interface WaitingCollection {
  find(
    filter: object,
    projection: object,
  ): { sort(order: Record<string, 1>): { limit(n: number): { lean(): PromiseLike<unknown[]> } } };
  countDocuments(filter: object): { exec(): Promise<number> };
}

/**
 * One kind of waiting work: the rows of one collection that match `waiting`
 * and last moved (`sinceField`) before the cutoff, and the workflow that moves each.
 */
interface WaitingWork {
  kind: StuckKind;
  collection: (store: Store) => WaitingCollection;
  waiting: (cutoff: Date) => object;
  sinceField: 'updated_at' | 'received_at';
  /** The status to show where the rows have none of their own (a message not yet filed). */
  status?: string;
  /** The workflow that moves the row on: its own, or (a webhook delivery) its endpoint's. */
  workflowId: (row: WaitingRow) => string;
}

const WAITING: WaitingWork[] = [
  {
    kind: 'document',
    collection: (store) => store.documents,
    waiting: (cutoff) => ({ status: { $in: MOVING_STATUSES }, updated_at: { $lt: cutoff } }),
    sinceField: 'updated_at',
    workflowId: (row) => sendWorkflowId(row._id),
  },
  {
    kind: 'document',
    collection: (store) => store.receivedMessages,
    waiting: (cutoff) => ({ filed: false, received_at: { $lt: cutoff } }),
    sinceField: 'received_at',
    status: RECEIVING,
    workflowId: (row) => receiveWorkflowId(row._id),
  },
  {
    kind: 'invoice_response',
    collection: (store) => store.invoiceResponses,
    waiting: (cutoff) => ({ status: 'queued', updated_at: { $lt: cutoff } }),
    sinceField: 'updated_at',
    workflowId: (row) => responseWorkflowId(row._id),
  },
  // A Message Level Status leaves under the receive workflow of the message it answers (same id).
  {
    kind: 'mls',
    collection: (store) => store.messageLevelStatuses,
    waiting: (cutoff) => ({ status: 'queued', updated_at: { $lt: cutoff } }),
    sinceField: 'updated_at',
    workflowId: (row) => receiveWorkflowId(row._id),
  },
  {
    kind: 'webhook_delivery',
    collection: (store) => store.deliveries,
    waiting: (cutoff) => ({ status: 'pending', updated_at: { $lt: cutoff } }),
    sinceField: 'updated_at',
    workflowId: (row) => webhookEndpointWorkflowId(row.webhook_id!),
  },
];

async function waitingRows(work: WaitingWork, store: Store, cutoff: Date, limit: number): Promise<StuckItem[]> {
  const projection = { workspace_id: 1, status: 1, webhook_id: 1, [work.sinceField]: 1 };
  const rows = (await work
    .collection(store)
    .find(work.waiting(cutoff), projection)
    .sort({ [work.sinceField]: 1 })
    .limit(limit)
    .lean()) as WaitingRow[];
  return rows.map((row) => ({
    kind: work.kind,
    id: row._id,
    status: work.status ?? row.status ?? '',
    workspaceId: row.workspace_id,
    since: row[work.sinceField]!,
    workflowId: work.workflowId(row),
  }));
}

export interface StuckWork {
  /** The longest waiting first, at most `limit`. */
  items: StuckItem[];
  /** How many of each kind are stuck, listed or not. */
  counts: Record<StuckKind, number>;
}

/** Work that has not moved for longer than `olderThanMs`. */
export async function stuckWork(
  store: Store,
  options: { olderThanMs?: number; limit?: number; now?: Date } = {},
): Promise<StuckWork> {
  const { olderThanMs = STUCK_AFTER_MS, limit = 100, now = new Date() } = options;
  const cutoff = new Date(now.getTime() - olderThanMs);
  const [rows, counts] = await Promise.all([
    Promise.all(WAITING.map((work) => waitingRows(work, store, cutoff, limit))),
    stuckCounts(store, cutoff),
  ]);
  return {
    items: rows
      .flat()
      .sort((a, b) => a.since.getTime() - b.since.getTime())
      .slice(0, limit),
    counts,
  };
}

async function stuckCounts(store: Store, cutoff: Date): Promise<Record<StuckKind, number>> {
  const counted = await Promise.all(
    WAITING.map(async (work) => ({
      kind: work.kind,
      count: await work.collection(store).countDocuments(work.waiting(cutoff)).exec(),
    })),
  );
  const counts: Record<StuckKind, number> = { document: 0, invoice_response: 0, mls: 0, webhook_delivery: 0 };
  for (const { kind, count } of counted) counts[kind] += count;
  return counts;
}

/** How many documents wait in each moving status (and receiving), and how long the longest-waiting one has. */
async function inProgress(store: Store, now: Date): Promise<WorkReading['inProgress']> {
  const ageOf = (since: Date | undefined) => (since ? Math.max(0, (now.getTime() - since.getTime()) / 1000) : 0);
  const sent = MOVING_STATUSES.map(async (status) => {
    const [count, oldest] = await Promise.all([
      store.documents.countDocuments({ status }),
      store.documents.findOne({ status }, { updated_at: 1 }).sort({ updated_at: 1 }).lean(),
    ]);
    return { status, count, oldestSeconds: ageOf(oldest?.updated_at) };
  });
  const receiving = (async () => {
    const [count, oldest] = await Promise.all([
      store.receivedMessages.countDocuments({ filed: false }),
      store.receivedMessages.findOne({ filed: false }, { received_at: 1 }).sort({ received_at: 1 }).lean(),
    ]);
    return { status: RECEIVING, count, oldestSeconds: ageOf(oldest?.received_at) };
  })();
  return Promise.all([...sent, receiving]);
}

/** What the API's metrics read at each scrape: work in progress, stuck work (by the default threshold) and the validator's lanes. */
export async function readWork(store: Store, validatorUrl: string, now = new Date()): Promise<WorkReading> {
  const [progress, stuck, lanes] = await Promise.all([
    inProgress(store, now),
    stuckCounts(store, new Date(now.getTime() - STUCK_AFTER_MS)),
    validatorLanes(validatorUrl),
  ]);
  return { inProgress: progress, stuck: Object.entries(stuck).map(([kind, count]) => ({ kind, count })), lanes };
}
