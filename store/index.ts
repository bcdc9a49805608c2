import mongoose, { type Connection } from 'mongoose';

import { accountModel } from './accounts';
import { apiKeyModel } from './api-keys';
import { auditEventModel } from './audit-events';
import { companyModel } from './companies';
import { creditLedgerModel } from './credits';
import { attachmentModel, contentModel, documentModel } from './documents';
import { eventModel } from './events';
import { invoiceResponseModel } from './invoice-responses';
import { kycBlobModel, kycDocumentModel } from './kyc-documents';
import { kycSubmissionModel } from './kyc-submissions';
import { membershipModel } from './memberships';
import { messageLevelStatusModel } from './message-level-statuses';
import { providerOrganisationModel, providerTenantModel } from './provider-tenants';
import { enforceIndexedQueries, indexedQueriesOnly } from './query-shapes';
import { rateSlotModel } from './rate-limits';
import { sessionModel, signInLinkModel } from './sessions';
import { peppolRegistrationModel, receivedMessageModel } from './receiving';
import { renderingClaimModel, renderingModel } from './renderings';
import { reportingItemModel, reportingMonthModel } from './reporting';
import { usageDayModel } from './usage';
import { attemptModel, deliveryModel, fanoutMarkModel, webhookModel } from './webhooks';
import { workspaceModel } from './workspaces';

// Registered before any model is compiled, so every collection carries the guard.
mongoose.plugin(indexedQueriesOnly);

/** Every collection of the service, bound to one connection. */
export function createStore(db: Connection) {
  return {
    accounts: accountModel(db),
    workspaces: workspaceModel(db),
    memberships: membershipModel(db),
    apiKeys: apiKeyModel(db),
    companies: companyModel(db),
    auditEvents: auditEventModel(db),
    usageDays: usageDayModel(db),
    rateSlots: rateSlotModel(db),
    documents: documentModel(db),
    contents: contentModel(db),
    attachments: attachmentModel(db),
    events: eventModel(db),
    webhooks: webhookModel(db),
    deliveries: deliveryModel(db),
    deliveryAttempts: attemptModel(db),
    fanoutMarks: fanoutMarkModel(db),
    kycDocuments: kycDocumentModel(db),
    kycBlobs: kycBlobModel(db),
    kycSubmissions: kycSubmissionModel(db),
    providerOrganisations: providerOrganisationModel(db),
    providerTenants: providerTenantModel(db),
    creditLedger: creditLedgerModel(db),
    receivedMessages: receivedMessageModel(db),
    peppolRegistrations: peppolRegistrationModel(db),
    invoiceResponses: invoiceResponseModel(db),
    reportingItems: reportingItemModel(db),
    reportingMonths: reportingMonthModel(db),
    messageLevelStatuses: messageLevelStatusModel(db),
    renderings: renderingModel(db),
    renderingClaims: renderingClaimModel(db),
    signInLinks: signInLinkModel(db),
    sessions: sessionModel(db),
  };
}

export type Store = ReturnType<typeof createStore>;

export interface StoreOptions {
  /** Refuse any query no declared index serves (see query-shapes.ts). */
  strictQueryShapes?: boolean;
}

/** Builds the indexes before the first request: uniqueness (emails, key prefixes, idempotency) depends on them. */
export async function openStore(db: Connection, options: StoreOptions = {}): Promise<Store> {
  enforceIndexedQueries(options.strictQueryShapes ?? false);
  const store = createStore(db);
  await Promise.all(Object.values(store).map((model) => model.init()));
  return store;
}
