import type Decimal from 'decimal.js';

import type { DocumentInput, PartyInput } from '../input';
import type { Violation } from '../violation';

/** What every country's rules read, computed once per document. */
export interface NationalContext {
  document: DocumentInput;
  out: Violation[];
  /** The seller's country as the Peppol schematron reads it ($supplierCountry): its VAT id's prefix, else its address country. */
  supplierCountry: string;
  /** The buyer's, read the same way ($customerCountry). */
  customerCountry: string;
  sellerAddressCountry: string | undefined;
  buyerAddressCountry: string | undefined;
  /** The amount due (BT-115), computed once and only when a rule needs it. */
  payable(): Decimal;
}

export type NationalRules = (context: NationalContext) => void;

/** Every line, document allowance and document charge with its JSON path. */
export function taxedItems(
  document: DocumentInput,
): { path: string; tax_category?: string | undefined; tax_rate?: string | undefined }[] {
  return [
    ...document.lines.map((item, index) => ({ ...item, path: `lines[${index}]` })),
    ...(document.allowances ?? []).map((item, index) => ({ ...item, path: `allowances[${index}]` })),
    ...(document.charges ?? []).map((item, index) => ({ ...item, path: `charges[${index}]` })),
  ];
}

const ADDRESS_PART_NAMES = { street: 'street', city: 'city', postal_code: 'postal code' } as const;
type AddressPart = keyof typeof ADDRESS_PART_NAMES;

/** One violation per missing part of a party's address, each naming its own rule. */
export function requireAddress(
  party: PartyInput,
  path: 'from' | 'to',
  rules: Partial<Record<AddressPart, string>>,
  who: string,
  out: Violation[],
): void {
  for (const [part, rule] of Object.entries(rules) as [AddressPart, string][]) {
    if (!party.address?.[part]) {
      out.push({
        path: `${path}.address.${part}`,
        rule,
        message: `${who} needs the ${ADDRESS_PART_NAMES[part]} in the address (set it on the company or in ${path}.address).`,
      });
    }
  }
}
