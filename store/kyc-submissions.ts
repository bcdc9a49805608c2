import { Schema, type Connection, type InferSchemaType } from 'mongoose';

import { identityFields } from './companies';

/**
 * One row per KYC submission of a workspace (the latest is its KYC state;
 * none means `none`). What was submitted is written once; only the review
 * outcome changes, once, by the review workflow's activity, conditional on
 * the row still being `pending`.
 */
const kycSubmissionSchema = new Schema(
  {
    /**
     * `<workspace id>#<number>`: two submits racing from the same state both
     * claim the same number, and this key lets exactly one of them insert.
     */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    /** 1 for the first submission, one more for each resubmission after a rejection. */
    number: { type: Number, required: true },
    status: { type: String, enum: ['pending', 'approved', 'rejected'], required: true },
    company_id: { type: String, required: true },
    legal_name: { type: String, required: true },
    /** Verbatim as submitted: formats differ by country and are not checked. */
    enterprise_number: { type: String, required: true },
    attestation_name: { type: String, required: true },
    attestation_role: { type: String, required: true },
    attestation_version: { type: String, required: true },
    /**
     * Each company's identity when the workspace submitted: what the review is about. An approval verifies a
     * company's Peppol id only while its identity is still this one (services/receiving/participant-review.ts);
     * absent on submissions made before it was kept.
     */
    company_identities: {
      type: [new Schema({ company_id: { type: String, required: true }, ...identityFields }, { _id: false })],
      default: undefined,
    },
    /** The KYC documents the workspace had when it submitted: what the review is about. */
    document_ids: { type: [String], required: true },
    submitted_by: { type: String, required: true },
    submitted_at: { type: Date, required: true },
    reviewed_at: { type: Date, default: null },
    reject_reason: { type: String, default: null },
  },
  { versionKey: false, collection: 'kyc_submissions' },
);
kycSubmissionSchema.index({ workspace_id: 1, number: -1 });
// The review reconciler finds pending submissions, oldest first.
kycSubmissionSchema.index({ status: 1, submitted_at: 1 });

export const kycSubmissionId = (workspaceId: string, number: number) =>
  `${workspaceId}#${String(number).padStart(6, '0')}`;

export const kycSubmissionModel = (db: Connection) => db.model('KycSubmission', kycSubmissionSchema);
export type KycSubmissionRow = InferSchemaType<typeof kycSubmissionSchema>;
