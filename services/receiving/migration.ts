import { newMigrationKey } from '../../domain/peppol/migration-key';
import type { SecretBox } from '../../domain/secret-box';
import type { Logger } from '../../platform/logger';
import { NetworkRegistrationError, type SmlRegistration } from '../../platform/peppol/network-registration';
import type { Store } from '../../store';
import type { CompanyRow } from '../../store/companies';
import { recordAudit, type Actor } from '../audit';
import { RuleError } from '../errors';

/**
 * A company changing Peppol provider keeps its participant id: the SML moves
 * the participant from one SMP to the other with a migration key (SML 1.3.0,
 * PrepareToMigrate and Migrate).
 *
 * - Leaving: the company asks for a key (owner or admin, audited); our access
 *   point gives it to the SML with PrepareToMigrate; the company hands it to its
 *   new provider, whose SMP takes the participant over with it. Until then the
 *   company stays registered here.
 * - Arriving: the company gives us the key its previous provider issued
 *   (`migration_key`); its registration presents it with Migrate instead of
 *   creating the participant, which the SML would refuse as already registered.
 *
 * Keys are sealed at rest (the secret box that seals webhook secrets) and
 * dropped once the SML has them; the audit trail never holds one.
 */

export interface MigrationDependencies {
  store: Store;
  secretBox: SecretBox;
  sml: SmlRegistration;
  logger: Logger;
}

type Company = CompanyRow & { _id: string };

/** Keeps the key the company's previous provider issued, for its registration to present. */
export async function supplyMigrationKey(
  store: Store,
  secretBox: SecretBox,
  actor: Actor,
  company: Company,
  key: string,
): Promise<void> {
  await store.companies.updateOne(
    { _id: company._id },
    { $set: { incoming_migration: { key_sealed: secretBox.seal(key), supplied_at: new Date() } } },
  );
  await recordAudit(store, actor, {
    action: 'company.migration_key_supplied',
    workspaceId: company.workspace_id,
    target: { type: 'company', id: company._id },
  });
}

/** The key the registration presents to the SML, when the company gave one. */
export function incomingMigrationKey(
  secretBox: SecretBox,
  company: Pick<CompanyRow, 'incoming_migration'>,
): string | undefined {
  return company.incoming_migration ? secretBox.open(company.incoming_migration.key_sealed) : undefined;
}

/** The SML took the key: it is used up. */
export async function migratedIn(store: Store, company: Company, participant: string): Promise<void> {
  const supplied = company.incoming_migration?.supplied_at;
  if (!supplied) return;
  const { modifiedCount } = await store.companies.updateOne(
    { _id: company._id, 'incoming_migration.supplied_at': supplied },
    { $set: { incoming_migration: null } },
  );
  if (modifiedCount === 0) return;
  await recordAudit(
    store,
    { accountId: 'system:receiving', keyPrefix: null },
    {
      action: 'company.participant_migrated_in',
      workspaceId: company.workspace_id,
      target: { type: 'company', id: company._id },
      details: { participant_id: participant },
    },
  );
}

/**
 * A new key for the participant the company is registered as, to give its
 * new provider: kept sealed until our access point has given it to the SML
 * (the receiving workflow does, once signalled). A key asked for again
 * replaces the one before.
 */
export async function issueMigrationKey(
  store: Store,
  secretBox: SecretBox,
  actor: Actor,
  company: Company,
): Promise<{ key: string; participant: string; requestedAt: Date }> {
  const registration = await store.peppolRegistrations
    .findOne({ company_id: company._id, status: 'registered' }, { participant_id: 1 })
    .lean();
  if (!registration) {
    throw new RuleError(
      'receiver_not_registered',
      `Company ${company._id} is not registered as a Peppol receiver here (see receiving.status), so there is no participant to move to another provider.`,
      {
        param: 'id',
      },
    );
  }
  const key = newMigrationKey();
  const requestedAt = new Date();
  await store.companies.updateOne(
    { _id: company._id },
    {
      $set: {
        outgoing_migration: {
          status: 'preparing',
          participant_id: registration.participant_id,
          key_sealed: secretBox.seal(key),
          requested_at: requestedAt,
          prepared_at: null,
          error_message: null,
        },
      },
    },
  );
  await recordAudit(store, actor, {
    action: 'company.migration_key_issued',
    workspaceId: company.workspace_id,
    target: { type: 'company', id: company._id },
    details: { participant_id: registration.participant_id },
  });
  return { key, participant: registration.participant_id, requestedAt };
}

/** Whether a key waits to be given to the SML: the participant it is for, while the company is still registered as it. */
export function migrationToPrepare(company: Company | null, registered: string[]): string | null {
  const outgoing = company?.outgoing_migration;
  return outgoing?.status === 'preparing' &&
    registered.some((value) => value.toLowerCase() === outgoing.participant_id.toLowerCase())
    ? outgoing.participant_id
    : null;
}

/**
 * Gives the waiting key to the SML (PrepareToMigrate through our access
 * point). A refusal no retry mends is recorded on the company and ends the
 * step; anything else is thrown for the activity's retry policy.
 */
export async function prepareOutgoingMigration(
  deps: MigrationDependencies,
  companyId: string,
): Promise<'prepared' | 'failed' | 'nothing'> {
  const { store } = deps;
  const company = await store.companies.findById(companyId).lean();
  const outgoing = company?.outgoing_migration;
  if (!company || outgoing?.status !== 'preparing' || !outgoing.key_sealed) return 'nothing';
  // Only this request's outcome is written: a newer key asked for meanwhile is the one waiting.
  const same = { _id: companyId, 'outgoing_migration.requested_at': outgoing.requested_at };
  try {
    await deps.sml.prepareMigration(outgoing.participant_id, deps.secretBox.open(outgoing.key_sealed));
  } catch (err) {
    if (!(err instanceof NetworkRegistrationError && err.permanent)) throw err;
    await store.companies.updateOne(same, {
      $set: {
        'outgoing_migration.status': 'failed',
        'outgoing_migration.error_message': err.message,
        'outgoing_migration.key_sealed': null,
      },
    });
    return 'failed';
  }
  await store.companies.updateOne(same, {
    $set: {
      'outgoing_migration.status': 'prepared',
      'outgoing_migration.prepared_at': new Date(),
      'outgoing_migration.key_sealed': null,
    },
  });
  deps.logger.info({ companyId, participant: outgoing.participant_id }, 'migration key given to the SML');
  return 'prepared';
}

/** The key could not be given to the SML through the whole retry policy: said on the company. */
export async function recordMigrationFailure(store: Store, companyId: string, reason: string): Promise<void> {
  const company = await store.companies.findById(companyId).lean();
  if (company?.outgoing_migration?.status !== 'preparing') return;
  await store.companies.updateOne(
    { _id: companyId, 'outgoing_migration.requested_at': company.outgoing_migration.requested_at },
    {
      $set: {
        'outgoing_migration.status': 'failed',
        'outgoing_migration.error_message': reason,
        'outgoing_migration.key_sealed': null,
      },
    },
  );
}
