import { Schema, type Connection, type InferSchemaType } from 'mongoose';

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
    /** Where its registration as a Peppol receiver (our SMP and the SML) stands; null until it first went live. */
    receiving: {
      type: new Schema(
        {
          status: { type: String, enum: ['registering', 'registered', 'unregistered', 'failed'], required: true },
          participant_id: { type: String, default: null },
          document_types: { type: [String], default: [] },
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

export const companyModel = (db: Connection) => db.model('Company', companySchema);
export type CompanyRow = InferSchemaType<typeof companySchema>;
