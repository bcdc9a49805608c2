import { Schema, type Connection } from 'mongoose';

/**
 * What the live provider holds for us: one organisation per approved
 * workspace and one tenant per provisioned company. A company is live
 * exactly when its tenant row exists; the row's key is the company id, so a
 * company never gets two tenants, however often provisioning is repeated.
 */

const providerOrganisationSchema = new Schema(
  {
    /** The workspace id. */
    _id: { type: String, required: true },
    organisation_id: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'provider_organisations' },
);

const providerTenantSchema = new Schema(
  {
    /** The company id. */
    _id: { type: String, required: true },
    workspace_id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    /** The Peppol id the provider registered for the company (changed by a company update). */
    participant_id: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'provider_tenants' },
);

export const providerOrganisationModel = (db: Connection) =>
  db.model('ProviderOrganisation', providerOrganisationSchema);
export const providerTenantModel = (db: Connection) => db.model('ProviderTenant', providerTenantSchema);
