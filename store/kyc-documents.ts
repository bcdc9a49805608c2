import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * KYC documents, in two collections: the small metadata row that lists and
 * counts (`kyc_documents`, written once, then only marked deleted), and the content with the SHA-256
 * of its bytes (`kyc_blobs`), written first, sealed (services/kyc/content.ts),
 * read only by the operator, and rewritten only to seal it under a new key.
 * The blob's key and hash stay inside: no API answer carries them.
 */

const kycDocumentSchema = new Schema(
  {
    /** Sortable (`kyd_` + time + randomness): a workspace's documents list in upload order. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    /** The company a mandate covers; null for the workspace's own documents. */
    company_id: { type: String, default: null },
    doc_type: {
      type: String,
      enum: ['registry_extract', 'representative_id', 'authority_proof', 'mandate'],
      required: true,
    },
    filename: { type: String, required: true },
    /** Sniffed from the bytes. */
    mime_type: { type: String, required: true },
    size_bytes: { type: Number, required: true },
    mandate_grantor_name: { type: String, default: null },
    sha256: { type: String, required: true },
    storage_key: { type: String, required: true },
    uploaded_by: { type: String, required: true },
    created_at: { type: Date, required: true },
    /**
     * Deleted by the workspace before it submitted (DELETE /v1/kyc/documents/{id}): no longer listed, counted or
     * submitted. The row and its sealed content stay, for the operator, since a submission made at the same moment
     * may name it.
     */
    deleted_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'kyc_documents' },
);
kycDocumentSchema.index({ workspace_id: 1, _id: 1 });
/** The document of a blob, whose workspace's audit trail records a reseal. */
kycDocumentSchema.index({ storage_key: 1 });

const kycBlobSchema = new Schema(
  {
    /** The storage key: random, unrelated to the document id. */
    _id: { type: String, required: true },
    /** Of the plain bytes. */
    sha256: { type: String, required: true },
    size_bytes: { type: Number, required: true },
    /** Sealed under the key `key_id` names; the plain bytes in a row stored before sealing, which has no `key_id`. */
    content: { type: Buffer, required: true },
    key_id: { type: String, default: null },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'kyc_blobs' },
);

export const kycDocumentModel = (db: Connection) => db.model('KycDocument', kycDocumentSchema);
export const kycBlobModel = (db: Connection) => db.model('KycBlob', kycBlobSchema);
export type KycDocumentRow = InferSchemaType<typeof kycDocumentSchema>;
export type KycBlobRow = InferSchemaType<typeof kycBlobSchema>;
