import { fullIdentifier } from '../../domain/peppol/smp';
import {
  BIS_BILLING_CII,
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  INVOICE_RESPONSE,
  PINT_AUNZ_SERVICES,
} from '../../domain/peppol/capabilities';
import { PINT_AUNZ_COUNTRIES } from '../../domain/ubl/xml';
import type { Logger } from '../../platform/logger';
import { NetworkRegistrationError, type SmlRegistration } from '../../platform/peppol/network-registration';
import type { Store } from '../../store';
import type { CompanyRow } from '../../store/companies';
import { isDuplicateKey } from '../../store/errors';
import { registrableParticipant, type CompanyIdentity } from '../../domain/kyc/participant-proof';
import { recordAudit } from '../audit';
import { recordEvent } from '../events';
import type { SecretBox } from '../../domain/secret-box';
import { listingsToSync } from './business-card';
import { incomingMigrationKey, migratedIn, migrationToPrepare } from './migration';
import { identityOf, proofDetails, standingOf } from './participant-review';

/**
 * A company as a Peppol receiver: while it is live, not deleted, its
 * workspace not suspended and it has a Peppol id, that participant is in our
 * SMP (peppol_registrations, which the SMP serves) and in the SML (through
 * our access point's SML client); otherwise it is in neither. The receiving
 * workflow plans the difference and applies it step by step; each step is
 * safe to repeat.
 */

export interface RegistrationDependencies {
  store: Store;
  sml: SmlRegistration;
  /** Opens the migration key a company arriving from another provider gave (services/receiving/migration.ts). */
  secretBox: SecretBox;
  logger: Logger;
}

/**
 * What our SMP publishes for every registered company: the BIS Billing 3.0 invoice and credit note, and the
 * Invoice Response (BIS Invoice Response 3), so buyers can answer the invoices our companies send.
 * @internal
 */
export const RECEIVED_DOCUMENT_TYPES = [
  fullIdentifier(BIS_BILLING_INVOICE),
  fullIdentifier(BIS_BILLING_CREDIT_NOTE),
  fullIdentifier(INVOICE_RESPONSE.documentType),
];

/**
 * What our SMP publishes for a company: the UBL document types, BIS Billing in CII when it asked for it
 * (`receive_cii`), and PINT A-NZ for a company in Australia or New Zealand, where senders write it.
 */
export const documentTypesOf = (
  company: { receive_cii?: boolean | null; country?: string | null } | null | undefined,
): string[] => [
  ...RECEIVED_DOCUMENT_TYPES,
  ...(company?.receive_cii ? [fullIdentifier(BIS_BILLING_CII)] : []),
  ...(PINT_AUNZ_COUNTRIES.includes(company?.country ?? '')
    ? Object.values(PINT_AUNZ_SERVICES).map((service) => fullIdentifier(service.documentType))
    : []),
];

/** A participant already registered for another company, here or by another access point: no retry changes that. */
export class RegistrationRefusedError extends Error {
  override name = 'RegistrationRefusedError';
}

/** BDMSL's answer, relayed by our access point, when another SMP holds the participant ("… already exist"). */
const HELD_BY_ANOTHER_SMP = /already exist/i;

/** Said plainly on the company: the SML's own words alone ("BadRequestFault [ERR-106] …") do not tell a user what happened. */
const registeredElsewhere = (participant: string, smlAnswer: string) =>
  new RegistrationRefusedError(
    `Peppol id ${participant} is registered by another access point, so documents sent to it go there, not here. ` +
      "If it is the company's own id, ask its current provider for a migration key and give it as migration_key; otherwise change peppol_id to the company's own. " +
      `(${smlAnswer})`,
  );

type ReceivingStatus = NonNullable<CompanyRow['receiving']>['status'];

export interface ReceivingPlan {
  /** The participant the company should be registered as (null: none). */
  desired: string | null;
  /** The participant to register (null: none, or it is registered already). */
  register: string | null;
  /** Participants registered for the company that it should no longer have. */
  unregister: string[];
  /** An identity no proof covers (domain/kyc/participant-proof.ts): the operator reviews it before anything of it is registered. */
  review: { identity: CompanyIdentity; why: string } | null;
  /** An identity the operator refused: the participant and why, said on the company's receiving status. */
  refused: { participant: string; reason: string } | null;
  /** Participants whose Peppol Directory listing is to be brought in line (services/receiving/business-card.ts). */
  listings: string[];
  /** The participant whose migration key waits to be given to the SML (services/receiving/migration.ts). */
  prepareMigration: string | null;
}

const key = (participant: string) => participant.toLowerCase();

/** The company as a receiver: live (it has a tenant), not deleted, its workspace not suspended; null otherwise. */
async function receivingCompany(store: Store, companyId: string) {
  const company = await store.companies.findById(companyId).lean();
  if (!company || company.deleted_at || !company.peppol_id) return null;
  const [tenant, workspace] = await Promise.all([
    store.providerTenants.findById(companyId, { _id: 1 }).lean(),
    store.workspaces.findById(company.workspace_id, { suspended: 1 }).lean(),
  ]);
  return tenant && workspace && !workspace.suspended ? company : null;
}

export async function planReceiving(store: Store, companyId: string): Promise<ReceivingPlan> {
  const company = await receivingCompany(store, companyId);
  const standing = company ? standingOf(company) : ({ status: 'none' } as const);
  const desired = company ? registrableParticipant(standing, company.peppol_id ?? null) : null;
  const current = await store.peppolRegistrations.find({ company_id: companyId }).lean();
  const registered = current.find((row) => desired !== null && row._id === key(desired) && row.status === 'registered');
  return {
    desired,
    register: desired !== null && !registered ? desired : null,
    unregister: current.filter((row) => desired === null || row._id !== key(desired)).map((row) => row.participant_id),
    review: company && standing.status === 'review' ? { identity: identityOf(company), why: standing.why } : null,
    refused:
      company?.peppol_id && standing.status === 'rejected'
        ? { participant: company.peppol_id, reason: standing.reason }
        : null,
    listings: listingsToSync(company, desired, current),
    prepareMigration: migrationToPrepare(
      company,
      current.filter((row) => row.status === 'registered').map((row) => row.participant_id),
    ),
  };
}

async function setReceiving(
  store: Store,
  companyId: string,
  receiving: { status: ReceivingStatus; participant_id: string | null; error_message?: string | null },
): Promise<void> {
  await store.companies.updateOne(
    { _id: companyId },
    { $set: { receiving: { error_message: null, ...receiving, updated_at: new Date() } } },
  );
}

/**
 * Claims the participant for the company (a unique insert), publishes it in our SMP, then registers it in
 * the SML: with the migration key the company brought from its previous provider, by taking it over.
 */
export async function registerParticipant(
  deps: RegistrationDependencies,
  companyId: string,
  participant: string,
): Promise<void> {
  const { store } = deps;
  const company = await store.companies.findById(companyId).lean();
  if (!company) throw new RegistrationRefusedError(`company ${companyId} does not exist`);
  const now = new Date();
  try {
    await store.peppolRegistrations.create({
      _id: key(participant),
      company_id: companyId,
      workspace_id: company.workspace_id,
      participant_id: participant,
      document_types: RECEIVED_DOCUMENT_TYPES,
      status: 'registering',
      created_at: now,
      updated_at: now,
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const owner = await store.peppolRegistrations.findById(key(participant), { company_id: 1 }).lean();
    if (owner && owner.company_id !== companyId) {
      throw new RegistrationRefusedError(
        `Peppol id ${participant} is registered as a receiver for another company; a participant can be registered once.`,
      );
    }
  }
  await setReceiving(store, companyId, { status: 'registering', participant_id: participant });
  const migrationKey = incomingMigrationKey(deps.secretBox, company);
  try {
    await deps.sml.register(participant, migrationKey);
  } catch (err) {
    if (!(err instanceof NetworkRegistrationError && err.permanent)) throw err;
    // The SML will not take it: our SMP stops publishing it, and another company may claim it.
    await store.peppolRegistrations.deleteOne({ _id: key(participant), company_id: companyId, status: 'registering' });
    throw migrationKey === undefined && HELD_BY_ANOTHER_SMP.test(err.message)
      ? registeredElsewhere(participant, err.message)
      : err;
  }
  const { modifiedCount } = await store.peppolRegistrations.updateOne(
    { _id: key(participant), company_id: companyId, status: 'registering' },
    { $set: { status: 'registered', updated_at: new Date() } },
  );
  await setReceiving(store, companyId, { status: 'registered', participant_id: participant });
  await migratedIn(store, company, participant);
  if (modifiedCount > 0) await auditRegistration(store, companyId, participant);
}

/** The audit trail says what proved the participant the company is now registered as. */
async function auditRegistration(store: Store, companyId: string, participant: string): Promise<void> {
  const company = await store.companies.findById(companyId).lean();
  if (!company) return;
  const standing = standingOf(company);
  await recordAudit(
    store,
    { accountId: 'system:receiving', keyPrefix: null },
    {
      action: 'company.participant_registered',
      workspaceId: company.workspace_id,
      target: { type: 'company', id: companyId },
      details: {
        participant_id: participant,
        ...(standing.status !== 'none' && standing.proof && proofDetails(standing.proof)),
      },
    },
  );
}

/** Removes the participant from the SML, then from our SMP. */
export async function unregisterParticipant(
  deps: RegistrationDependencies,
  companyId: string,
  participant: string,
): Promise<void> {
  const { store } = deps;
  await deps.sml.unregister(participant);
  await store.peppolRegistrations.deleteOne({ _id: key(participant), company_id: companyId });
  if ((await store.peppolRegistrations.countDocuments({ company_id: companyId })) === 0) {
    await setReceiving(store, companyId, { status: 'unregistered', participant_id: null });
  }
}

/**
 * The outcome for the company's record and the live events feed: `registered`,
 * `unregistered`, `awaiting_review` (an operator reviews its participant id
 * first) or `failed`, each of the last two with why. `dedupeKey` comes from the workflow
 * step, so a retried step records its event once.
 */
export async function recordReceivingOutcome(
  store: Store,
  companyId: string,
  outcome: {
    status: 'registered' | 'unregistered' | 'awaiting_review' | 'failed';
    participant: string | null;
    error_message?: string;
  },
  dedupeKey: string,
  logger?: Logger,
): Promise<void> {
  const company = await store.companies.findById(companyId, { workspace_id: 1 }).lean();
  if (!company) return;
  if (outcome.status === 'failed' || outcome.status === 'awaiting_review') {
    await setReceiving(store, companyId, {
      status: outcome.status,
      participant_id: outcome.participant,
      error_message: outcome.error_message ?? null,
    });
  }
  await recordEvent(
    store,
    {
      dedupeKey,
      type: `company.receiving_${outcome.status}`,
      workspaceId: company.workspace_id,
      environment: 'live',
      companyId,
      documentId: null,
      data: {
        company_id: companyId,
        participant_id: outcome.participant,
        status: outcome.status,
        error_message: outcome.error_message ?? null,
      },
    },
    logger,
  );
}

/** The company a participant is registered for, when it receives `documentTypeId`: where an inbound message goes. */
export async function servicedCompany(
  store: Store,
  participant: string,
  documentTypeId: string | null,
): Promise<{ companyId: string; workspaceId: string } | null> {
  const registration = await store.peppolRegistrations.findById(key(participant)).lean();
  if (!registration || (documentTypeId !== null && !(await currentTypes(store, registration)).includes(documentTypeId)))
    return null;
  return { companyId: registration.company_id, workspaceId: registration.workspace_id };
}

/** The document types our SMP publishes for a participant (its value lower-cased), while it is registered or being registered. */
export async function publishedDocumentTypes(store: Store, participantValue: string): Promise<string[] | undefined> {
  const registration = await store.peppolRegistrations
    .findById(key(participantValue), { document_types: 1, company_id: 1 })
    .lean();
  return registration ? currentTypes(store, registration) : undefined;
}

/**
 * What a registration publishes now: what it was made with, and what was added since (the Invoice Response), without
 * registering again; the CII and PINT types follow the company (`receive_cii`, its country) as it is at this moment,
 * so changing them needs no step that could race a registration.
 */
async function currentTypes(
  store: Store,
  registration: { document_types: string[]; company_id: string },
): Promise<string[]> {
  const company = await store.companies.findById(registration.company_id, { receive_cii: 1, country: 1 }).lean();
  return [...new Set([...registration.document_types, ...documentTypesOf(company)])];
}
