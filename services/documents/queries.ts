import type { DocumentStatus } from '../../domain/documents/lifecycle';
import type { Environment } from '../../domain/environment';
import type { Store } from '../../store';
import type { AttachmentRow, DocumentRow } from '../../store/documents';
import { pageOf, type Page } from '../paging';

/** Reads of documents and their parts; every one is served by an index (store/query-shapes.ts). */

export async function findDocument(store: Store, documentId: string): Promise<DocumentRow | null> {
  return store.documents.findById(documentId).lean();
}

export interface DocumentListQuery {
  companyId: string;
  environment: Environment;
  status?: DocumentStatus | undefined;
  direction?: 'sent' | 'received' | undefined;
  limit: number;
  /** Id of the last document of the previous page. */
  before?: string | undefined;
}

/** A company's documents of one environment, newest first. */
export async function listDocuments(store: Store, query: DocumentListQuery): Promise<Page<DocumentRow>> {
  const rows = await store.documents
    .find({
      company_id: query.companyId,
      environment: query.environment,
      ...(query.status && { status: query.status }),
      // Rows from before receiving have no direction: every one of them was sent.
      ...(query.direction === 'received' && { direction: 'received' }),
      ...(query.direction === 'sent' && { direction: { $ne: 'received' } }),
      ...(query.before && { _id: { $lt: query.before } }),
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

export async function findAttachment(store: Store, documentId: string, attachmentId: string): Promise<AttachmentRow | null> {
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
export async function sendableContentOf(store: Store, documentId: string): Promise<{ ubl: string; input: Record<string, unknown> } | null> {
  const content = await store.contents.findById(documentId, { ubl: 1, input: 1 }).lean();
  return content ? { ubl: content.ubl, input: (content.input ?? {}) as Record<string, unknown> } : null;
}
