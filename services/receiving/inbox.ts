import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { listDocuments, type DocumentListQuery } from '../documents/queries';
import type { Page } from '../paging';

/** The inbox: a company's received documents, newest first, and acknowledging them. */

/** A company's received documents, newest first: the list of documents, received only. */
export function listInbox(store: Store, query: Omit<DocumentListQuery, 'scope' | 'direction'> & { companyId: string }): Promise<Page<DocumentRow>> {
  const { companyId, ...filters } = query;
  return listDocuments(store, { ...filters, scope: { companyId }, direction: 'received' });
}

/** Marks a received document not processed again (a person's "unread"): it is back in the pull queue. Undoing again changes nothing. */
export async function unacknowledgeDocument(store: Store, document: DocumentRow): Promise<DocumentRow> {
  if (!document.acknowledged_at) return document;
  const updated = await store.documents
    .findOneAndUpdate({ _id: document._id, direction: 'received' }, { $set: { acknowledged_at: null, updated_at: new Date() } }, { returnDocument: 'after' })
    .lean();
  return updated ?? document;
}

/** Marks a received document processed (the first time counts; repeating it changes nothing). */
export async function acknowledgeDocument(store: Store, document: DocumentRow): Promise<DocumentRow> {
  if (document.acknowledged_at) return document;
  const now = new Date();
  const updated = await store.documents
    .findOneAndUpdate({ _id: document._id, direction: 'received', acknowledged_at: null }, { $set: { acknowledged_at: now, updated_at: now } }, { returnDocument: 'after' })
    .lean();
  return updated ?? ((await store.documents.findById(document._id).lean()) as DocumentRow);
}
