import type { Environment } from '../domain/environment';
import { newSortableId, sortableIdBound } from '../domain/ids';
import type { Logger } from '../platform/logger';
import type { Store } from '../store';
import { isDuplicateKey } from '../store/errors';
import type { EventRow } from '../store/events';
import { insertRow } from '../store/insert';
import { pageOf, type Page } from './paging';

/**
 * The event log: recorded once per dedupe key, listed chronologically.
 *
 * Ids carry the time they were made, and an event is written right after
 * its id is made. The feed shows only events older than FEED_DELAY_MS, by
 * which time every write that could still land before them has landed, so
 * a cursor (the last id a client read) never skips an event that arrives
 * later, and never repeats one.
 */

export const FEED_DELAY_MS = 2_000;

export interface NewEvent {
  dedupeKey: string;
  type: string;
  workspaceId: string;
  environment: Environment;
  companyId: string | null;
  documentId: string | null;
  data: Record<string, unknown>;
}

export interface Recorded {
  event: EventRow;
  /** False when an event with the same dedupe key existed already (a repeated write): that one is answered. */
  created: boolean;
}

/** Records an event once per dedupe key. */
export async function recordEvent(store: Store, event: NewEvent, logger?: Logger): Promise<Recorded> {
  const createdAt = Date.now();
  const row = {
    _id: newSortableId('event', createdAt),
    dedupe_key: event.dedupeKey,
    type: event.type,
    workspace_id: event.workspaceId,
    environment: event.environment,
    company_id: event.companyId,
    document_id: event.documentId,
    data: event.data,
    created_at: new Date(createdAt),
  };
  try {
    await insertRow(store.events, row);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const existing = await store.events.findOne({ dedupe_key: event.dedupeKey }).lean();
    if (!existing) throw err;
    return { event: existing, created: false };
  }
  const took = Date.now() - createdAt;
  if (took >= FEED_DELAY_MS)
    logger?.error(
      { eventId: row._id, took },
      'an event was written after the feed delay; a feed cursor may have passed it',
    );
  return { event: row, created: true };
}

/** Whose an event about a document is: the row it concerns (the document, or a reply to it) carries these. */
export interface EventOwner {
  workspace_id: string;
  environment: Environment;
  company_id: string;
}

/**
 * Records an event about one document (null: a reply that matches none),
 * owned as `owner` is; its data starts with `document_id` and `company_id`,
 * as every document event's does.
 */
export function recordDocumentEvent(
  store: Store,
  owner: EventOwner,
  documentId: string | null,
  event: { dedupeKey: string; type: string; data: Record<string, unknown> },
  logger?: Logger,
): Promise<Recorded> {
  return recordEvent(
    store,
    {
      dedupeKey: event.dedupeKey,
      type: event.type,
      workspaceId: owner.workspace_id,
      environment: owner.environment,
      companyId: owner.company_id,
      documentId,
      data: { document_id: documentId, company_id: owner.company_id, ...event.data },
    },
    logger,
  );
}

export interface EventFilter {
  workspaceId: string;
  environment: Environment;
  type?: string | undefined;
  companyId?: string | undefined;
  documentId?: string | undefined;
  /** Inclusive lower and exclusive upper bound of `created_at`. */
  from?: Date | undefined;
  to?: Date | undefined;
}

/** A page of a workspace's events, oldest first, after the event id `after`. */
export async function listEvents(
  store: Store,
  filter: EventFilter,
  limit: number,
  after: string | undefined,
  now = Date.now(),
): Promise<Page<EventRow>> {
  const settled = sortableIdBound('event', Math.min(now - FEED_DELAY_MS, filter.to?.getTime() ?? Infinity));
  const lower = [
    after && { $gt: after },
    filter.from && { $gte: sortableIdBound('event', filter.from.getTime()) },
  ].filter(Boolean);
  const idRange = Object.assign({ $lt: settled }, ...lower) as Record<string, string>;
  const query = {
    workspace_id: filter.workspaceId,
    environment: filter.environment,
    ...(filter.type && { type: filter.type }),
    ...(filter.companyId && { company_id: filter.companyId }),
    ...(filter.documentId && { document_id: filter.documentId }),
    _id: idRange,
  };
  const rows = await store.events
    .find(query)
    .sort({ _id: 1 })
    .limit(limit + 1)
    .lean();
  return pageOf(rows, limit);
}

/** Every event of one document, oldest first: its history. */
export async function eventsOfDocument(store: Store, documentId: string): Promise<EventRow[]> {
  return store.events.find({ document_id: documentId }).sort({ _id: 1 }).lean();
}
