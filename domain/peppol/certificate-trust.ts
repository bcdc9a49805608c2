import type { X509Certificate } from 'node:crypto';

/**
 * Whether a certificate another party presents can be trusted: valid now
 * and issued by one of the CAs an operator configured (for Peppol, the SMP CA
 * for SMP signatures and the AP CA for access points). As the Peppol SMP
 * client does (peppol-commons TrustStoreBasedX509KeySelector: "trusted
 * issuers only"), the issuer itself must be among the configured CAs: a
 * trust file holds the issuing CA, not only a root. Revocation is not
 * checked.
 */

export type TrustAnchors =
  /** The CAs the setting names. */
  | { setting: string; certificates: X509Certificate[] }
  /** Why nothing can be trusted under the setting (for example, it is not set). */
  | { setting: string; problem: string };

/** A distinguished name as one line, `C=BE, O=…, CN=…`. */
export const distinguishedName = (text: string) => text.split('\n').join(', ');

const isValidAt = (certificate: X509Certificate, now: Date) =>
  new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);

/** Why the certificate cannot be trusted now, for a person; undefined when it can. */
export function trustProblem(certificate: X509Certificate, anchors: TrustAnchors, now: Date): string | undefined {
  if ('problem' in anchors) return anchors.problem;
  const validFrom = new Date(certificate.validFrom);
  const validTo = new Date(certificate.validTo);
  if (validFrom > now) return `it is valid only from ${validFrom.toISOString()}`;
  if (validTo < now) return `it expired on ${validTo.toISOString()}`;
  // Name and key identifiers, then the signature itself: a CA of the same name but another key does not count.
  const issuer = anchors.certificates.find(
    (ca) => ca.ca && certificate.checkIssued(ca) && certificate.verify(ca.publicKey),
  );
  if (!issuer)
    return `it is not issued by a CA in ${anchors.setting} (its issuer is ${distinguishedName(certificate.issuer)})`;
  if (!isValidAt(issuer, now))
    return `its issuer ${distinguishedName(issuer.subject)} is not valid now (${issuer.validFrom} to ${issuer.validTo})`;
  return undefined;
}
