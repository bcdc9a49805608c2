import type { Environment } from '../../domain/environment';
import { sortableIdBound } from '../../domain/ids';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { pageOf, type Page } from '../paging';

/** The inbox: a company's received documents, newest first, and acknowledging them. */

export interface InboxQuery {
  companyId: string;
  environment: Environment;
  /** true: only acknowledged ones; false: only those not yet (the pull queue); absent: all. */
  acknowledged?: boolean | undefined;
  createdAfter?: Date | undefined;
  limit: number;
  /** Id of the last document of the previous page. */
  before?: string | undefined;
}

export async function listInbox(store: Store, query: InboxQuery): Promise<Page<DocumentRow>> {
  const idRange = {
    ...(query.before && { $lt: query.before }),
    ...(query.createdAfter && { $gt: sortableIdBound('document', query.createdAfter.getTime()) }),
  };
  const rows = await store.documents
    .find({
      company_id: query.companyId,
      environment: query.environment,
      direction: 'received',
      ...(query.acknowledged === false && { acknowledged_at: null }),
      ...(query.acknowledged === true && { acknowledged_at: { $ne: null } }),
      ...(Object.keys(idRange).length > 0 && { _id: idRange }),
    })
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .lean();
  return pageOf(rows, query.limit);
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
