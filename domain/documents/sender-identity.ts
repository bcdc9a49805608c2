import { sameValue, type CompanyIdentity } from '../kyc/participant-proof';
import { termJsonPath, termNamed, termPathFromRoot } from '../terms/table';
import type { Violation } from './violation';

/**
 * On the live network our access point signs every document it sends, so a
 * live document speaks only for the business a review verified: its seller
 * EndpointID (BT-34), legal name (BT-27), VAT id (BT-31) and legal
 * registration id (BT-30) are the company's verified identity. A value the
 * document states otherwise is refused, naming the field; a value it leaves
 * out is the company's (JSON) or absent (UBL, where the official rules judge
 * what must be there). A trading name (BT-28) and the address may differ.
 * The sandbox delivers to a mailbox under no one's name: it keeps its freedom
 * and says the sender is unverified instead.
 */

interface SellerField {
  field: keyof CompanyIdentity;
  term: string;
  label: string;
}

/** Where each field sits in each syntax is the term table's (domain/terms/table.ts). */
const SELLER_FIELDS: readonly SellerField[] = [
  { field: 'peppol_id', term: 'BT-34', label: 'electronic address (Peppol id)' },
  { field: 'name', term: 'BT-27', label: 'legal name' },
  { field: 'tax_id', term: 'BT-31', label: 'VAT identifier' },
  { field: 'company_registration_id', term: 'BT-30', label: 'legal registration identifier' },
];

const pathOf = (term: string, syntax: 'json' | 'ubl' | 'cii') => {
  const row = termNamed('seller', term);
  return syntax === 'json' ? termJsonPath(row) : termPathFromRoot(row, syntax);
};

/** What a document states of its seller, in the JSON view's words (`from`); undefined: not stated. */
export type StatedSeller = Partial<Record<keyof CompanyIdentity, string | null | undefined>>;

/** Every seller field a live document states otherwise than the verified identity, each named at its path in the syntax it came in. */
export function sellerIdentityViolations(
  stated: StatedSeller,
  verified: CompanyIdentity,
  syntax: 'json' | 'ubl' | 'cii',
): Violation[] {
  return SELLER_FIELDS.flatMap(({ field, term, label }) => {
    const path = pathOf(term, syntax);
    const value = stated[field];
    if (value === undefined || value === null || sameValue(field, value, verified[field])) return [];
    const ours = verified[field] === null ? 'none' : `"${verified[field]}"`;
    return [
      {
        path,
        rule: null,
        message:
          `A live document's seller is the sending company as verified: its ${label} (${term}) is ${ours}, not "${value}". ` +
          (syntax === 'json' ? `Leave ${path} out to use the company's.` : 'State the verified value.') +
          (field === 'name' ? ' A trading name (BT-28) may differ, and so may the address.' : ''),
      },
    ];
  });
}
