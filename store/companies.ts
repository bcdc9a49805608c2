import { Schema, type Connection, type InferSchemaType } from 'mongoose';

/**
 * The identity a review verifies (domain/kyc/participant-proof.ts): the three fields that can prove a Peppol id, and the
 * legal name a live document states beside them (null where kept before names were).
 */
export const identityFields = {
  peppol_id: { type: String, default: null },
  name: { type: String, default: null },
  company_registration_id: { type: String, default: null },
  tax_id: { type: String, default: null },
};

const companySchema = new Schema(
  {
    /** Sortable (`com_` + time + randomness): a workspace's companies list newest first by id. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    name: { type: String, required: true },
    country: { type: String, required: true },
    company_registration_id: { type: String, default: null },
    tax_id: { type: String, default: null },
    email: { type: String, default: null },
    iban: { type: String, default: null },
    address: {
      type: new Schema({ street: String, city: String, postal_code: String }, { _id: false }),
      default: null,
    },
    peppol_id: { type: String, default: null },
    /** Answer every invoice and credit note received with an Invoice Response `AB` (acknowledged) at once. */
    auto_acknowledge: { type: Boolean, default: false },
    /** Receive Peppol BIS Billing in CII too: our SMP publishes its CII document type beside the UBL ones. */
    receive_cii: { type: Boolean, default: false },
    /** Listed in the Peppol Directory while registered as a receiver (its business card); false keeps it out. */
    directory: { type: Boolean, default: true },
    /**
     * A migration key its previous SMP gave it (sealed with the secret box): its receiving registration presents it to
     * the SML (Migrate) instead of creating the participant; cleared once the SML took it.
     */
    incoming_migration: {
      type: new Schema(
        { key_sealed: { type: String, required: true }, supplied_at: { type: Date, required: true } },
        { _id: false },
      ),
      default: null,
    },
    /** The migration key it asked for to move to another provider (PrepareToMigrate): sealed until the SML has it, never shown again. */
    outgoing_migration: {
      type: new Schema(
        {
          status: { type: String, enum: ['preparing', 'prepared', 'failed'], required: true },
          participant_id: { type: String, required: true },
          key_sealed: { type: String, default: null },
          requested_at: { type: Date, required: true },
          prepared_at: { type: Date, default: null },
          error_message: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    /** Where its business card stands in the Peppol Directory (services/receiving/business-card.ts); null until first asked. */
    directory_listing: {
      type: new Schema(
        {
          status: { type: String, enum: ['published', 'withdrawn', 'not_listed', 'skipped', 'failed'], required: true },
          participant_id: { type: String, default: null },
          error_message: { type: String, default: null },
          updated_at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    /**
     * What a review proved of the company (domain/kyc/participant-proof.ts): its identity when its workspace's KYC
     * was approved, or as an operator approved it since. Null until then. Written by the review only.
     */
    verified_identity: {
      type: new Schema(
        {
          ...identityFields,
          /** `kyc`: the workspace's KYC approval; `operator`: a participant review. */
          by: { type: String, enum: ['kyc', 'operator'], required: true },
          reviewer: { type: String, default: null },
          at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    /** The operator's review of an identity that is not proven (the receiving workflow opens it and waits for the decision). */
    participant_review: {
      type: new Schema(
        {
          status: { type: String, enum: ['pending', 'approved', 'rejected'], required: true },
          identity: { type: new Schema(identityFields, { _id: false }), required: true },
          /** Why it needs a review (pending), or the reason the operator gave (rejected). */
          reason: { type: String, default: null },
          requested_at: { type: Date, required: true },
          decided_at: { type: Date, default: null },
          reviewer: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    /** Where its registration as a Peppol receiver (our SMP and the SML) stands; null until it first went live. */
    receiving: {
      type: new Schema(
        {
          status: {
            type: String,
            enum: ['registering', 'registered', 'unregistered', 'awaiting_review', 'failed'],
            required: true,
          },
          participant_id: { type: String, default: null },
          error_message: { type: String, default: null },
          updated_at: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: null,
    },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    /** Deleted companies keep their documents for the record but are gone for everyone. */
    deleted_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'companies' },
);
companySchema.index({ workspace_id: 1, _id: -1 });
// The operator's list of participant reviews waiting for a decision, oldest first.
companySchema.index({ 'participant_review.status': 1, 'participant_review.requested_at': 1 });

export const companyModel = (db: Connection) => db.model('Company', companySchema);
export type CompanyRow = InferSchemaType<typeof companySchema>;
