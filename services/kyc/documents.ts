import { isOpen } from '../../domain/kyc/verification';
import type { KycUpload } from '../../domain/kyc/upload-checks';
import { newSortableId, randomBase62 } from '../../domain/ids';
import type { SecretBox } from '../../domain/secret-box';
import type { Store } from '../../store';
import { insertRow } from '../../store/insert';
import { recordAudit, type Actor } from '../audit';
import { RuleError } from '../errors';
import { sealedBlob } from './content';
import { kycStatusOf, type KycDocument } from './state';

/** The documents change only while the workspace may submit: not while a review is pending, nor once it is verified. */
async function requireOpen(store: Store, workspaceId: string): Promise<void> {
  const status = await kycStatusOf(store, workspaceId);
  if (isOpen(status)) return;
  throw new RuleError(
    'kyc_locked',
    status === 'pending'
      ? 'The KYC documents are under review; they can be changed again if the review rejects them.'
      : 'The workspace is verified; its KYC documents are final.',
    { details: { status } },
  );
}

/**
 * Stores a checked KYC upload (domain/kyc/upload-checks.ts) while uploads are open
 * (status `none` or `rejected`). The bytes go first, sealed under the KYC
 * key (services/kyc/content.ts), into their own row under a random storage
 * key, with their SHA-256; then the metadata row that points at them. A crash in between leaves bytes nobody
 * points at, never a row without its bytes.
 *
 * An upload racing a submission can land after it; the submission lists the
 * documents it was made with (document_ids), so the review is not changed by it.
 */
export async function uploadKycDocument(
  store: Store,
  box: SecretBox,
  actor: Actor,
  workspaceId: string,
  upload: KycUpload,
): Promise<KycDocument> {
  await requireOpen(store, workspaceId);
  const now = new Date();
  const storageKey = `kyb_${randomBase62(24)}`;
  const blob = sealedBlob(box, storageKey, upload.bytes, now);
  await insertRow(store.kycBlobs, blob);
  const row: KycDocument = {
    _id: newSortableId('kycDocument', now.getTime()),
    workspace_id: workspaceId,
    company_id: upload.companyId,
    doc_type: upload.docType,
    filename: upload.filename,
    mime_type: upload.mimeType,
    size_bytes: upload.bytes.length,
    mandate_grantor_name: upload.grantorName,
    sha256: blob.sha256,
    storage_key: storageKey,
    uploaded_by: actor.accountId,
    created_at: now,
  };
  await insertRow(store.kycDocuments, row);
  await recordAudit(store, actor, {
    action: 'kyc.document_uploaded',
    workspaceId,
    target: { type: 'kyc_document', id: row._id },
    details: {
      doc_type: row.doc_type,
      company_id: row.company_id,
      size_bytes: row.size_bytes,
      mime_type: row.mime_type,
    },
  });
  return row;
}

/**
 * Deletes a document of the workspace while it may submit (to replace it: upload the new one, delete this one). The
 * row is marked deleted by one conditional update, so of two deletes one answers; its sealed content is kept, since
 * a submission made at the same moment may name it. Another workspace's document is not found, as a missing one.
 */
export async function deleteKycDocument(
  store: Store,
  actor: Actor,
  workspaceId: string,
  documentId: string,
): Promise<void> {
  await requireOpen(store, workspaceId);
  const deleted = await store.kycDocuments
    .findOneAndUpdate(
      { _id: documentId, workspace_id: workspaceId, deleted_at: null },
      { $set: { deleted_at: new Date() } },
    )
    .lean();
  if (!deleted)
    throw new RuleError('kyc_document_not_found', `No KYC document ${documentId} in this workspace.`, { param: 'id' });
  await recordAudit(store, actor, {
    action: 'kyc.document_deleted',
    workspaceId,
    target: { type: 'kyc_document', id: documentId },
    details: { doc_type: deleted.doc_type, company_id: deleted.company_id },
  });
}
