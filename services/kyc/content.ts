import { createHash } from 'node:crypto';

import type { mongo } from 'mongoose';

import type { SecretBox } from '../../domain/secret-box';
import type { Store } from '../../store';
import type { KycBlobRow, KycDocumentRow } from '../../store/kyc-documents';
import { recordAudit, type Actor } from '../audit';
import { OperatorError } from '../operator/workspaces';

/**
 * KYC document content at rest (`kyc_blobs`): sealed by a SecretBox under the
 * KYC key and bound to its storage key, the key's id on the row. A row
 * stored before sealing holds the plain bytes and no key id: it is read as it
 * is, and `resealKycContent` seals it, as it seals again what a previous key
 * sealed, so that a rotation ends with every blob under the current key.
 */

/** A blob as read (lean): its content is the driver's Binary. */
type StoredBlob = Pick<KycBlobRow, 'sha256' | 'key_id'> & { _id: string; content: mongo.Binary };

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The row of new content under `storageKey`: its hash and size, and its bytes sealed under the box's key. */
export function sealedBlob(box: SecretBox, storageKey: string, bytes: Buffer, now: Date): KycBlobRow & { _id: string } {
  return {
    _id: storageKey,
    sha256: sha256Of(bytes),
    size_bytes: bytes.length,
    content: box.sealBytes(bytes, storageKey),
    key_id: box.keyId,
    created_at: now,
  };
}

/** The plain bytes of a blob, checked against their SHA-256. */
function openBlob(box: SecretBox, blob: StoredBlob): Buffer {
  const stored = Buffer.from(blob.content.value());
  const bytes =
    blob.key_id === null || blob.key_id === undefined ? stored : box.openBytes(stored, blob.key_id, blob._id);
  if (sha256Of(bytes) !== blob.sha256) throw new Error(`the content of ${blob._id} does not match its SHA-256`);
  return bytes;
}

/** A KYC document and its bytes, for the operator's review; the reading is in the workspace's audit trail. */
export async function readKycDocument(
  store: Store,
  box: SecretBox,
  operator: Actor,
  documentId: string,
): Promise<{ document: KycDocumentRow; bytes: Buffer }> {
  const document = await store.kycDocuments.findById(documentId).lean();
  if (!document) throw new OperatorError(`no KYC document ${documentId}`);
  const blob = await store.kycBlobs.findById(document.storage_key).lean();
  if (!blob) throw new OperatorError(`the content of KYC document ${documentId} is missing`);
  const bytes = openBlob(box, blob);
  await recordAudit(store, operator, {
    action: 'kyc.document_read',
    workspaceId: document.workspace_id,
    target: { type: 'kyc_document', id: documentId },
    details: { doc_type: document.doc_type },
  });
  return { document, bytes };
}

export interface ResealReport {
  /** Sealed now under the current key. */
  resealed: number;
  /** Under the current key already. */
  current: number;
  /** What could not be opened (a key that is not configured, damaged content), with the reason. */
  left: { id: string; reason: string }[];
}

const RESEAL_PAGE = 100;

/**
 * Seals every blob that is not under the box's current key (plain rows from
 * before sealing, and what the previous key sealed) under the current key.
 * Each one is a compare-and-set on its key id, so runs at once or again
 * change nothing twice; each reseal is in its document's audit trail.
 */
export async function resealKycContent(store: Store, box: SecretBox, operator: Actor): Promise<ResealReport> {
  const report: ResealReport = { resealed: 0, current: 0, left: [] };
  let after: string | undefined;
  for (;;) {
    const page = await store.kycBlobs
      .find(after === undefined ? {} : { _id: { $gt: after } }, { _id: 1, key_id: 1 })
      .sort({ _id: 1 })
      .limit(RESEAL_PAGE)
      .lean();
    for (const { _id: id, key_id: keyId } of page) {
      if (keyId === box.keyId) {
        report.current += 1;
        continue;
      }
      try {
        if (await resealBlob(store, box, operator, id)) report.resealed += 1;
        else report.current += 1;
      } catch (err) {
        report.left.push({ id, reason: (err as Error).message });
      }
    }
    if (page.length < RESEAL_PAGE) return report;
    after = page.at(-1)!._id;
  }
}

/** False when another run sealed it first. */
async function resealBlob(store: Store, box: SecretBox, operator: Actor, id: string): Promise<boolean> {
  const blob = await store.kycBlobs.findById(id).lean();
  if (!blob || blob.key_id === box.keyId) return false;
  const bytes = openBlob(box, blob);
  const sealed = await store.kycBlobs.updateOne(
    { _id: id, key_id: blob.key_id ?? null },
    { $set: { content: box.sealBytes(bytes, id), key_id: box.keyId } },
  );
  if (sealed.modifiedCount === 0) return false;
  // A blob nobody points at (an upload that crashed half-way) has no workspace to tell.
  const document = await store.kycDocuments.findOne({ storage_key: id }).lean();
  if (document) {
    await recordAudit(store, operator, {
      action: 'kyc.document_resealed',
      workspaceId: document.workspace_id,
      target: { type: 'kyc_document', id: document._id },
      details: { from_key_id: blob.key_id ?? null, to_key_id: box.keyId },
    });
  }
  return true;
}
