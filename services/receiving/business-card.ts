import { businessCardFingerprint, companyBusinessCard, type BusinessCard } from '../../domain/peppol/directory';
import type { Logger } from '../../platform/logger';
import type { BusinessCardPublishing } from '../../platform/peppol/network-registration';
import type { Store } from '../../store';
import type { CompanyRow } from '../../store/companies';
import type { PeppolRegistrationRow } from '../../store/receiving';

/**
 * A registered company in the Peppol Directory: our SMP serves its business
 * card (`/businesscard/{participant id}`) while it is registered and has not
 * opted out (`directory: false`), and the Directory is told to read it after
 * the registration and whenever the card changes, and to drop it when the
 * company opts out or is unregistered. The Directory is for discovery only;
 * a failure there never holds up receiving, but the company's
 * `directory_listing` says it.
 */

export interface BusinessCardDependencies {
  store: Store;
  directory: BusinessCardPublishing;
  logger: Logger;
}

export type ListingStatus = NonNullable<CompanyRow['directory_listing']>['status'];

const key = (participant: string) => participant.toLowerCase();

/** The card a company shows for a registration of it, or undefined when it shows none (opted out, deleted, or another participant now). */
function cardOf(
  company: (CompanyRow & { _id: string }) | null,
  registration: PeppolRegistrationRow | null,
): BusinessCard | undefined {
  if (
    !company ||
    !registration ||
    company.deleted_at ||
    company.directory === false ||
    registration.status !== 'registered'
  )
    return undefined;
  if (registration.company_id !== company._id || key(company.peppol_id ?? '') !== registration._id) return undefined;
  return companyBusinessCard(asVerified(company), registration.participant_id, registration.created_at);
}

/**
 * The company as a review verified it: the card is public, so a rename or a changed number shows only once an
 * operator has approved it (the company's receiving workflow has it reviewed). A legal name verified before
 * names were kept is the company's own until that review.
 */
function asVerified(company: CompanyRow): CompanyRow {
  const verified = company.verified_identity;
  if (!verified) return company;
  return {
    ...company,
    name: verified.name ?? company.name,
    tax_id: verified.tax_id ?? null,
    company_registration_id: verified.company_registration_id ?? null,
  };
}

/** What our SMP serves at `/businesscard/{participant id}` (the value lower-cased). */
export async function servedBusinessCard(store: Store, participantValue: string): Promise<BusinessCard | undefined> {
  const registration = await store.peppolRegistrations.findById(key(participantValue)).lean();
  const company = registration && (await store.companies.findById(registration.company_id).lean());
  return cardOf(company ?? null, registration);
}

/**
 * The participants whose Directory listing is not what it should be, for the
 * receiving plan: the one the company is (to be) registered as, when it shows
 * a card the Directory has not read yet or shows none while one is listed;
 * and any listed participant it is to be unregistered from.
 */
export function listingsToSync(
  company: (CompanyRow & { _id: string }) | null,
  desired: string | null,
  registrations: PeppolRegistrationRow[],
): string[] {
  const stale = registrations
    .filter((row) => row.business_card && (desired === null || row._id !== key(desired)))
    .map((row) => row.participant_id);
  if (desired === null || !company) return stale;
  const registration = registrations.find((row) => row._id === key(desired)) ?? null;
  const wanted = company.directory !== false;
  const card = registration?.status === 'registered' ? cardOf(company, registration) : undefined;
  // Not registered yet: after the registration, its card is read for the first time.
  const outOfDate = wanted
    ? !card || registration?.business_card?.sha256 !== businessCardFingerprint(card)
    : Boolean(registration?.business_card);
  return outOfDate ? [desired, ...stale] : stale;
}

async function setListing(
  store: Store,
  companyId: string,
  listing: { status: ListingStatus; participant_id: string; error_message?: string | null },
): Promise<void> {
  await store.companies.updateOne(
    { _id: companyId },
    { $set: { directory_listing: { error_message: null, ...listing, updated_at: new Date() } } },
  );
}

/**
 * Brings the Directory in line for one participant of the company: asks it
 * to read the card our SMP serves now, or to drop the one it has. Safe to
 * repeat: a card it has read already is not sent again.
 */
export async function syncListing(
  deps: BusinessCardDependencies,
  companyId: string,
  participant: string,
): Promise<ListingStatus> {
  const { store, directory } = deps;
  const [company, registration] = await Promise.all([
    store.companies.findById(companyId).lean(),
    store.peppolRegistrations.findById(key(participant)).lean(),
  ]);
  if (registration && registration.company_id !== companyId) return 'not_listed';
  const card = cardOf(company, registration);
  if (card) {
    const sha256 = businessCardFingerprint(card);
    if (registration?.business_card?.sha256 === sha256) return 'published';
    const outcome = await directory.publish(participant);
    if (outcome === 'published')
      await store.peppolRegistrations.updateOne(
        { _id: key(participant), company_id: companyId },
        { $set: { business_card: { sha256, published_at: new Date() } } },
      );
    await setListing(store, companyId, { status: outcome, participant_id: participant });
    deps.logger.info({ companyId, participant, outcome }, 'business card sent to the Peppol Directory');
    return outcome;
  }
  if (registration?.business_card) {
    const outcome = await directory.withdraw(participant);
    await store.peppolRegistrations.updateOne(
      { _id: key(participant), company_id: companyId },
      { $set: { business_card: null } },
    );
    await setListing(store, companyId, {
      status: outcome === 'removed' ? 'withdrawn' : 'skipped',
      participant_id: participant,
    });
    deps.logger.info({ companyId, participant, outcome }, 'business card withdrawn from the Peppol Directory');
    return outcome === 'removed' ? 'withdrawn' : 'skipped';
  }
  await setListing(store, companyId, { status: 'not_listed', participant_id: participant });
  return 'not_listed';
}

/** The Directory would not take it, or kept failing: said on the company, receiving goes on. */
export async function recordListingFailure(
  store: Store,
  companyId: string,
  participant: string,
  reason: string,
): Promise<void> {
  await setListing(store, companyId, { status: 'failed', participant_id: participant, error_message: reason });
}
