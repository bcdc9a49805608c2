import type { DocumentStatus } from '../../domain/documents/lifecycle';
import type { Environment } from '../../domain/environment';
import { sortableIdBound } from '../../domain/ids';
import type { Store } from '../../store';
import type { AttachmentRow, DocumentRow } from '../../store/documents';
import { pageOf, type Page } from '../paging';

/** Reads of documents and their parts; every one is served by an index (store/query-shapes.ts). */

export async function findDocument(store: Store, documentId: string): Promise<DocumentRow | null> {
  return store.documents.findById(documentId).lean();
}

export interface DocumentListQuery {
  /** One company's documents, or those of every company of a workspace. */
  scope: { companyId: string } | { workspaceId: string };
  environment: Environment;
  status?: DocumentStatus | undefined;
  direction?: 'sent' | 'received' | undefined;
  /** Received documents only: true, those acknowledged; false, those not yet (the pull queue, the app's unread). */
  acknowledged?: boolean | undefined;
  createdAfter?: Date | undefined;
  /** Part of the number or of the other party's name, any case. */
  search?: string | undefined;
  /** Issue dates (YYYY-MM-DD), both ends included. */
  issuedFrom?: string | undefined;
  issuedTo?: string | undefined;
  limit: number;
  /** Id of the last document of the previous page. */
  before?: string | undefined;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Documents of one environment, newest first, as filtered. */
export async function listDocuments(store: Store, query: DocumentListQuery): Promise<Page<DocumentRow>> {
  const idRange = {
    ...(query.before && { $lt: query.before }),
    ...(query.createdAfter && { $gt: sortableIdBound('document', query.createdAfter.getTime()) }),
  };
  const issued = {
    ...(query.issuedFrom && { $gte: query.issuedFrom }),
    ...(query.issuedTo && { $lte: query.issuedTo }),
  };
  const matching = query.search && { $regex: escapeRegex(query.search), $options: 'i' };
  const received = query.direction === 'received' || query.acknowledged !== undefined;
  const rows = await store.documents
    .find({
      ...('companyId' in query.scope
        ? { company_id: query.scope.companyId }
        : { workspace_id: query.scope.workspaceId }),
      environment: query.environment,
      ...(query.status && { status: query.status }),
      // Rows from before receiving have no direction: every one of them was sent.
      ...(received && { direction: 'received' }),
      ...(query.direction === 'sent' && { direction: { $ne: 'received' } }),
      ...(query.acknowledged === false && { acknowledged_at: null }),
      ...(query.acknowledged === true && { acknowledged_at: { $ne: null } }),
      ...(Object.keys(issued).length > 0 && { issue_date: issued }),
      ...(matching && { $or: [{ number: matching }, { counterparty: matching }] }),
      ...(Object.keys(idRange).length > 0 && { _id: idRange }),
    })
    .sort({ _id: -1 })
    .limit(query.limit + 1)
    .lean();
  return pageOf(rows, query.limit);
}

export type AttachmentMeta = Omit<AttachmentRow, 'content'> & { _id: string };

/** Metadata of a document's attachments, in document order (their bytes are not read). */
export async function attachmentsOf(store: Store, documentId: string): Promise<AttachmentMeta[]> {
  return store.attachments.find({ document_id: documentId }, { content: 0 }).sort({ position: 1 }).lean();
}

export async function findAttachment(
  store: Store,
  documentId: string,
  attachmentId: string,
): Promise<AttachmentRow | null> {
  return store.attachments.findOne({ _id: attachmentId, document_id: documentId }).lean();
}

/** The send-ready UBL stored at acceptance. */
export async function ublOf(store: Store, documentId: string): Promise<string | null> {
  return (await store.contents.findById(documentId, { ubl: 1 }).lean())?.ubl ?? null;
}

/** A document posted as CII: the CII as posted; null for any other. */
export async function postedCiiOf(store: Store, documentId: string): Promise<string | null> {
  return (await store.contents.findById(documentId, { cii: 1 }).lean())?.cii ?? null;
}

/** What a delivery attempt sends: the stored UBL and the parsed request as stored (company defaults applied), in one read. */
export async function sendableContentOf(
  store: Store,
  documentId: string,
): Promise<{ ubl: string; input: Record<string, unknown> } | null> {
  const content = await store.contents.findById(documentId, { ubl: 1, input: 1 }).lean();
  return content ? { ubl: content.ubl, input: (content.input ?? {}) as Record<string, unknown> } : null;
}
