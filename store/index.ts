import type { Connection } from 'mongoose';

import { accountModel } from './accounts';
import { apiKeyModel } from './api-keys';
import { auditEventModel } from './audit-events';
import { companyModel } from './companies';
import { attachmentModel, dispatchModel, documentModel, historyModel } from './documents';
import { membershipModel } from './memberships';
import { rateSlotModel } from './rate-limits';
import { usageDayModel } from './usage';
import { workspaceModel } from './workspaces';

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
    attachments: attachmentModel(db),
    history: historyModel(db),
    dispatches: dispatchModel(db),
  };
}

export type Store = ReturnType<typeof createStore>;

/** Builds the indexes before the first request: uniqueness (emails, key prefixes) depends on them. */
export async function openStore(db: Connection): Promise<Store> {
  const store = createStore(db);
  await Promise.all(Object.values(store).map((model) => model.init()));
  return store;
}
