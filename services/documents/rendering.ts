import { createHash } from 'node:crypto';

import type { RenderFormat, RenderLanguage } from '../../platform/official-validator';
import type { Store } from '../../store';
import type { DocumentRow } from '../../store/documents';
import { findReceivedMessage, receivedUbl } from '../receiving/file';
import { ublOf } from './queries';

/**
 * The UBL a person's view of the document is made from: for a document sent
 * here, the stored UBL (from acceptance on; a PDF asked to be attached is in
 * it once the send workflow has embedded it); for a received one, the
 * business document of its envelope. Null when a received message carried
 * none.
 */
export async function renderableUblOf(store: Store, document: DocumentRow): Promise<Buffer | null> {
  if (document.received) {
    const message = await findReceivedMessage(store, document._id);
    return (message && receivedUbl(message)) ?? null;
  }
  const ubl = await ublOf(store, document._id);
  return ubl === null ? null : Buffer.from(ubl);
}

/**
 * Names one rendering: the same UBL in the same format and language renders the same, so a client
 * holding this tag has it and need not ask for the work again.
 */
export function renderingTag(ubl: Buffer, format: RenderFormat, lang: RenderLanguage): string {
  return `"${createHash('sha256').update(ubl).digest('base64url').slice(0, 22)}-${format}-${lang}"`;
}
