import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { listDocuments, type DocumentListQuery } from '../documents/queries';
import type { Page } from '../paging';

/** The inbox: a company's received documents, newest first, and acknowledging them. */

/** A company's received documents, newest first: the list of documents, received only. */
export function listInbox(
  store: Store,
  query: Omit<DocumentListQuery, 'scope' | 'direction'> & { companyId: string },
): Promise<Page<DocumentRow>> {
  const { companyId, ...filters } = query;
  return listDocuments(store, { ...filters, scope: { companyId }, direction: 'received' });
}

/**
 * Marks a received document processed (`read`: it leaves the pull queue) or not processed again (a person's
 * "unread": it is back). One conditional update makes the change, so of two at once the first counts; repeating it
 * changes nothing and answers the row as it is.
 */
export async function markAcknowledged(store: Store, document: DocumentRow, read: boolean): Promise<DocumentRow> {
  if (Boolean(document.acknowledged_at) === read) return document;
  const now = new Date();
  const updated = await store.documents
    .findOneAndUpdate(
      { _id: document._id, direction: 'received', acknowledged_at: read ? null : { $ne: null } },
      { $set: { acknowledged_at: read ? now : null, updated_at: now } },
      { returnDocument: 'after' },
    )
    .lean();
  return updated ?? ((await store.documents.findById(document._id).lean()) as DocumentRow);
}
