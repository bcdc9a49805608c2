import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * KYC documents, in two collections written once each: the small metadata
 * row that lists and counts (`kyc_documents`), and the bytes with their
 * SHA-256 (`kyc_blobs`), written first and read only by the operator's
 * review. The blob's key and hash stay inside: no API answer carries them.
 */

const kycDocumentSchema = new Schema(
  {
    /** Sortable (`kyd_` + time + randomness): a workspace's documents list in upload order. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    /** The company a mandate covers; null for the workspace's own documents. */
    company_id: { type: String, default: null },
    doc_type: { type: String, enum: ['registry_extract', 'representative_id', 'authority_proof', 'mandate'], required: true },
    filename: { type: String, required: true },
    /** Sniffed from the bytes. */
    mime_type: { type: String, required: true },
    size_bytes: { type: Number, required: true },
    mandate_grantor_name: { type: String, default: null },
    sha256: { type: String, required: true },
    storage_key: { type: String, required: true },
    uploaded_by: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'kyc_documents' },
);
kycDocumentSchema.index({ workspace_id: 1, _id: 1 });

const kycBlobSchema = new Schema(
  {
    /** The storage key: random, unrelated to the document id. */
    _id: { type: String, required: true },
    sha256: { type: String, required: true },
    size_bytes: { type: Number, required: true },
    content: { type: Buffer, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'kyc_blobs' },
);

export const kycDocumentModel = (db: Connection) => db.model('KycDocument', kycDocumentSchema);
export const kycBlobModel = (db: Connection) => db.model('KycBlob', kycBlobSchema);
export type KycDocumentRow = InferSchemaType<typeof kycDocumentSchema>;
