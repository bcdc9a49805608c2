import { registrableParticipant, sameValue, type CompanyIdentity } from '../../domain/kyc/participant-proof';
import type { Company } from '../companies';
import { RuleError } from '../errors';
import { identityOf, standingOf } from '../receiving/participant-review';

/**
 * The identity a live document of the company is sent under: the company's
 * own while a review has verified it (domain/kyc/participant-proof.ts), else
 * nothing is sent, and the company is told why. A Peppol id the company set
 * since, or a changed legal name, registration id or VAT number, waits for
 * the operator's participant review (`ops participants`), which the
 * company's receiving workflow opens.
 */

type Standing =
  { verified: true; identity: CompanyIdentity } | { verified: false; why: string; details: Record<string, unknown> };

const SANDBOX = 'The sandbox is not affected.';

function sendingStanding(company: Company): Standing {
  const standing = standingOf(company);
  if (standing.status === 'verified') return { verified: true, identity: identityOf(company) };
  const details = { company_id: company._id, peppol_id: company.peppol_id ?? null, identity_status: standing.status };
  if (standing.status === 'none') {
    return {
      verified: false,
      why: `Company ${company._id} has no peppol_id: a live document is sent from the company's verified Peppol id. Set peppol_id; it is verified before it sends.`,
      details,
    };
  }
  const reason = standing.status === 'rejected' ? standing.reason : standing.why;
  const why =
    standing.status === 'rejected'
      ? `an operator's review refused its identity (${reason}); change the company to its own identity to be reviewed again`
      : `its identity waits for an operator's review: ${reason}`;
  return {
    verified: false,
    why: `Company ${company._id} cannot send on the live network as ${company.peppol_id}: ${why}. Documents are sent only under a verified identity.`,
    details: { ...details, reason },
  };
}

/** The verified identity a live document must state; 409 `sender_not_verified` when there is none now. */
export function requireVerifiedSender(company: Company): CompanyIdentity {
  const standing = sendingStanding(company);
  if (standing.verified) return standing.identity;
  throw new RuleError('sender_not_verified', `${standing.why} ${SANDBOX}`, {
    param: 'company_id',
    details: standing.details,
  });
}

/**
 * Why a live document whose envelope would name `sender` may not leave under our certificate now (the
 * company's identity is no longer verified, or the document states another), or null when it may: the
 * last check before the send, for a document accepted before a change.
 */
export function liveSenderRefusal(company: Company, sender: string): string | null {
  const standing = sendingStanding(company);
  if (!standing.verified) return standing.why;
  const verified = standing.identity.peppol_id;
  return sameValue('peppol_id', sender, verified)
    ? null
    : `Its seller ${sender} is not the company's verified Peppol id ${verified}.`;
}

/**
 * Why an Invoice Response whose envelope names `sender` may not leave for the company: it answers a document
 * received at the company's participant id, so it goes only from the id proven the company's own (the one our
 * SMP publishes, which a rename under review keeps); null when it may.
 */
export function replySenderRefusal(company: Company, sender: string): string | null {
  const proven = registrableParticipant(standingOf(company), company.peppol_id ?? null);
  if (proven && sameValue('peppol_id', sender, proven)) return null;
  return `Its sender ${sender} is not a Peppol id proven to be company ${company._id}'s${proven ? ` (${proven} is)` : ''}.`;
}
