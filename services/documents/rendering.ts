import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

import { mongo } from 'mongoose';

import { FINISHING_VERSION } from '../../domain/rendering/finish';
import type { RenderFormat, RenderLanguage } from '../../platform/official-validator';
import type { Store } from '../../store';
import { isDuplicateKey } from '../../store/errors';
import { insertRow } from '../../store/insert';
import type { DocumentRow } from '../../store/documents';
import { findReceivedMessage, receivedUbl } from '../receiving/filing';
import { ublOf } from './queries';

/**
 * The UBL a person's view of the document is made from: for a document sent
 * here, the stored UBL (from acceptance on; a PDF asked to be attached is in
 * it once the send workflow has embedded it); for a received one, the
 * business document of its envelope, or, when that was CII, the UBL written
 * from it when it was filed. Null when a received message carried none.
 */
export async function renderableUblOf(store: Store, document: DocumentRow): Promise<Buffer | null> {
  if (document.received) {
    const content = await store.contents.findById(document._id, { ubl: 1, cii: 1 }).lean();
    if (content?.cii) return Buffer.from(content.ubl);
    const message = await findReceivedMessage(store, document._id);
    return (message && receivedUbl(message)) ?? null;
  }
  const ubl = await ublOf(store, document._id);
  return ubl === null ? null : Buffer.from(ubl);
}

/**
 * Names one rendering: the same UBL in the same format and language, finished the same way
 * (FINISHING_VERSION), renders the same, so a client holding this tag has it and need not ask for the
 * work again.
 */
export function renderingTag(ubl: Buffer, format: RenderFormat, lang: RenderLanguage): string {
  return `"${createHash('sha256').update(ubl).digest('base64url').slice(0, 22)}-${format}-${lang}-f${FINISHING_VERSION}"`;
}

/** The largest rendering kept: a row holds 16 MiB; a document with large attachments can render past that even gzipped. */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

/** The rendering `tag` of document `documentId` if one was kept, else null. */
export async function keptRendering(store: Store, documentId: string, tag: string): Promise<Buffer | null> {
  const row = await store.renderings.findById(`${documentId}:${tag}`, { gzipped: 1 }).lean();
  if (!row) return null;
  // Read without mongoose's casting, the bytes come as BSON's Binary.
  const gzipped: unknown = row.gzipped;
  return promisify(gunzip)(gzipped instanceof mongo.Binary ? gzipped.buffer : (gzipped as Buffer));
}

/**
 * Keeps a rendering for the next request of the same one. Two processes that rendered it at once
 * both insert, and the unique `_id` keeps the first: the bytes are the same.
 */
export async function keepRendering(
  store: Store,
  documentId: string,
  tag: string,
  rendered: Buffer,
  now = new Date(),
): Promise<void> {
  const gzipped = await promisify(gzip)(rendered);
  if (gzipped.length > MAX_KEPT_BYTES) return;
  await insertRow(store.renderings, { _id: `${documentId}:${tag}`, gzipped, created_at: now }).catch((err: unknown) => {
    if (!isDuplicateKey(err)) throw err;
  });
}

/**
 * Claims `holder`'s one rendering in flight (a unique insert, so every API process counts the same
 * claim) for at most `forMs`; the answer ends the claim, or null when the holder has one already. A
 * claim past its end (its process died) is replaced, only by the one claim that deletes it.
 */
export async function claimRendering(
  store: Store,
  holder: string,
  forMs: number,
  now = new Date(),
): Promise<(() => Promise<void>) | null> {
  const token = randomUUID();
  const claim = async () => {
    await insertRow(store.renderingClaims, { _id: holder, token, expires_at: new Date(now.getTime() + forMs) });
    return async () => {
      await store.renderingClaims.deleteOne({ _id: holder, token });
    };
  };
  try {
    return await claim();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const { deletedCount } = await store.renderingClaims.deleteOne({ _id: holder, expires_at: { $lt: now } });
  if (deletedCount === 0) return null;
  return claim().catch((err: unknown) => {
    if (isDuplicateKey(err)) return null;
    throw err;
  });
}
