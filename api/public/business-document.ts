import { renderableUblOf } from '../../services/documents/rendering';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { ApiError } from '../http/errors';

/**
 * The business document a document's downloads and renderings are made of
 * (services/documents/rendering.ts): a received message that carried none
 * is 404 `ubl_not_available`, said here once for every route.
 */
export async function requireBusinessDocument(store: Store, document: DocumentRow): Promise<Buffer> {
  const ubl = await renderableUblOf(store, document);
  if (!ubl)
    throw new ApiError(
      'ubl_not_available',
      `Document ${document._id} was received without a business document in its envelope.`,
    );
  return ubl;
}
