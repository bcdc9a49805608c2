import type { Store } from '../../../store';
import type { DocumentRow } from '../../../store/documents';
import type { ReceivedContent } from '../../contract/views/documents';

/** A received document's JSON view and validation report (null for a sent document, whose content row holds the request). */
export async function receivedContentOf(store: Store, document: DocumentRow): Promise<ReceivedContent | null> {
  if (document.direction !== 'received') return null;
  const content = await store.contents.findById(document._id, { input: 1, validation: 1 }).lean();
  return content
    ? {
        input: (content.input as Record<string, unknown> | null) ?? null,
        validation: content.validation as ReceivedContent['validation'],
      }
    : null;
}
