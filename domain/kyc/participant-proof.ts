import sources from '../data/participant-id-sources.json';

/**
 * Whether a company's Peppol participant id is proven to be its own, before
 * our SMP and the SML publish it as the company's: whoever is registered for
 * a participant receives every invoice sent to it. Pure rules; the receiving
 * workflow acts on them (services/receiving/participant-review.ts).
 *
 * What a KYC review verified is the company's identity at the time: its
 * Peppol id, legal name, registration id and VAT number (`VerifiedIdentity`,
 * recorded on approval and by each operator review since). A participant id
 * is proven when it is the verified Peppol id, or when its scheme carries a
 * register or VAT number (domain/data/participant-id-sources.json) and its
 * value is the verified registration id or VAT number. Anything else, and any
 * change of the legal name, registration id or VAT number since, waits for an
 * operator's review. The same identity is what a live document states as its
 * seller (domain/documents/sender-identity.ts): only a verified one sends.
 */

export interface CompanyIdentity {
  peppol_id: string | null;
  /** The legal name (BT-27); null in what was verified before names were (then a review verifies it). */
  name: string | null;
  company_registration_id: string | null;
  tax_id: string | null;
}

export interface ParticipantReview {
  status: 'pending' | 'approved' | 'rejected';
  /** The identity the review is (or was) about. */
  identity: CompanyIdentity;
  reason: string | null;
}

export type ParticipantProof =
  /** The participant id is the one a review verified. */
  | { by: 'verified_peppol_id' }
  /** Its value is the verified registration id or VAT number, in the form its scheme writes it. */
  | { by: 'company_registration_id' | 'tax_id'; scheme: string; register: string };

export type IdentityStanding =
  /** No participant id: nothing to prove, nothing to register. */
  | { status: 'none' }
  | { status: 'verified'; proof: ParticipantProof }
  /** An operator must look (`why`); `proof` is set when the participant id itself stays proven meanwhile. */
  | { status: 'review'; why: string; proof: ParticipantProof | null }
  /** An operator refused this very identity; it stays refused until the company changes it. */
  | { status: 'rejected'; reason: string; proof: ParticipantProof | null };

interface SchemeSource {
  name: string;
  registration_id: string[];
  tax_id: string[];
}

const SCHEMES: Record<string, SchemeSource> = sources.schemes;

/** Registration ids and VAT numbers are written with spaces, dots, dashes and slashes, in either case. */
const normaliseNumber = (text: string | null): string | null => {
  const normalised = text?.toUpperCase().replace(/[\s./-]/g, '') ?? '';
  return normalised === '' ? null : normalised;
};

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `number` is written as one of the templates for the identifier value `id`. */
function writtenAs(templates: readonly string[], id: string, number: string | null): boolean {
  if (number === null) return false;
  return templates.some((template) => {
    const pattern = template
      .split('{id}')
      .map((part) => part.split('??').map(escapeForPattern).join('[0-9A-Z]{2}'))
      .join(escapeForPattern(id));
    return new RegExp(`^${pattern}$`).test(number);
  });
}

/** Peppol participant ids compare case-insensitively. */
const sameParticipant = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

/** How `peppolId` is proven to belong to the company whose verified identity this is; null when it is not. */
export function participantProof(peppolId: string, verified: CompanyIdentity | null): ParticipantProof | null {
  if (!verified) return null;
  if (verified.peppol_id && sameParticipant(peppolId, verified.peppol_id)) return { by: 'verified_peppol_id' };
  const [scheme = '', value = ''] = peppolId.split(/:(.*)/s);
  const source = SCHEMES[scheme];
  const id = normaliseNumber(value);
  if (!source || !id) return null;
  if (writtenAs(source.registration_id, id, normaliseNumber(verified.company_registration_id)))
    return { by: 'company_registration_id', scheme, register: source.name };
  if (writtenAs(source.tax_id, id, normaliseNumber(verified.tax_id)))
    return { by: 'tax_id', scheme, register: source.name };
  return null;
}

/** Legal names compare as a person reads them: Unicode-normalised, case and runs of white space aside. */
const normaliseName = (text: string | null): string | null => {
  const normalised = text?.normalize('NFC').replace(/\s+/gu, ' ').trim().toLocaleUpperCase('en') ?? '';
  return normalised === '' ? null : normalised;
};

/** Whether two values of an identity's field are the same (`field` names which: each compares in its own way). */
export function sameValue(field: keyof CompanyIdentity, a: string | null, b: string | null): boolean {
  if (field === 'peppol_id') return sameParticipant(a, b);
  return field === 'name' ? normaliseName(a) === normaliseName(b) : normaliseNumber(a) === normaliseNumber(b);
}

/** The fields besides the participant id that a review verifies, in the words a company and an operator read. */
const DETAILS = { name: 'legal name', company_registration_id: 'company_registration_id', tax_id: 'tax_id' } as const;

/** What of `current` is not what was verified, besides the participant id; a legal name verified before names were kept counts. */
function changedDetails(current: CompanyIdentity, verified: CompanyIdentity): string[] {
  const differs = (field: keyof typeof DETAILS) =>
    (field === 'name' && verified.name === null) || !sameValue(field, current[field], verified[field]);
  return (Object.keys(DETAILS) as (keyof typeof DETAILS)[]).filter(differs).map((field) => DETAILS[field]);
}

/** Whether two identities are the same, as the company would be registered: participant ids case-insensitively, numbers and names normalised. */
export function sameIdentity(a: CompanyIdentity, b: CompanyIdentity): boolean {
  return (['peppol_id', 'name', 'company_registration_id', 'tax_id'] as const).every((field) =>
    sameValue(field, a[field], b[field]),
  );
}

/** Why an operator must look at this identity, in the words the company and the operator read. */
function whyReview(
  current: CompanyIdentity & { peppol_id: string },
  verified: CompanyIdentity | null,
  proof: ParticipantProof | null,
): string {
  if (!verified)
    return `the company was not part of an approved KYC review, so nothing proves that ${current.peppol_id} is its own`;
  const changed = changedDetails(current, verified);
  if (proof) return `its ${changed.join(' and ')} changed after verification`;
  const scheme = current.peppol_id.split(':')[0]!;
  const carries = SCHEMES[scheme]
    ? `the company's verified registration id or VAT number`
    : `a number a KYC review verifies (scheme ${scheme} names no business register or VAT number)`;
  return `${current.peppol_id} is not ${carries}${changed.length ? `, and its ${changed.join(' and ')} changed after verification` : ''}`;
}

/** Where the company's participant id stands: proven, waiting for a review, or refused by one. */
export function identityStanding(
  current: CompanyIdentity,
  verified: CompanyIdentity | null,
  review: ParticipantReview | null,
): IdentityStanding {
  const peppolId = current.peppol_id;
  if (!peppolId) return { status: 'none' };
  const proof = participantProof(peppolId, verified);
  if (proof && verified && changedDetails(current, verified).length === 0) return { status: 'verified', proof };
  if (review?.status === 'rejected' && sameIdentity(review.identity, current))
    return { status: 'rejected', reason: review.reason ?? 'refused by the review', proof };
  return { status: 'review', why: whyReview({ ...current, peppol_id: peppolId }, verified, proof), proof };
}

/** The participant our SMP and the SML may publish for the company: its id while proven, else none. */
export function registrableParticipant(standing: IdentityStanding, peppolId: string | null): string | null {
  return standing.status !== 'none' && standing.proof ? peppolId : null;
}
