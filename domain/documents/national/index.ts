import { calculate } from '../calculate';
import type { DocumentInput } from '../input';
import type { Violation } from '../violation';
import type { NationalContext, NationalRules } from './context';
import { denmark } from './denmark';
import { germany } from './germany';
import { greece } from './greece';
import { iceland } from './iceland';
import { italy } from './italy';
import { netherlands } from './netherlands';
import { norway } from './norway';
import { sweden } from './sweden';

/**
 * The country rules of the Peppol BIS Billing 3.0 schematron (NL-R-*,
 * NO-R-*, SE-R-*, DK-R-*, IT-R-*, DE-R-*, GR-R-*, IS-R-*), checked before
 * sending. Each country's rules decide themselves whether they apply (by
 * the seller's address or, where the schematron does, its VAT id prefix);
 * only the rules of the seller's countries run at all.
 */

const RULES: Record<string, NationalRules> = {
  DE: germany,
  DK: denmark,
  EL: greece,
  GR: greece,
  IS: iceland,
  IT: italy,
  NL: netherlands,
  NO: norway,
  SE: sweden,
};

/** The country a VAT id names by its prefix, upper-cased as the schematron reads it. */
const vatCountry = (vatId: string | undefined) =>
  vatId && vatId.length >= 2 ? vatId.slice(0, 2).toUpperCase() : undefined;

export function checkNationalRules(document: DocumentInput, out: Violation[]): void {
  const sellerAddressCountry = document.from.address?.country;
  const supplierCountry = vatCountry(document.from.tax_id) ?? sellerAddressCountry ?? 'XX';
  const byAddress = sellerAddressCountry === undefined ? undefined : RULES[sellerAddressCountry];
  const byVat = RULES[supplierCountry];
  if (!byAddress && !byVat) return;

  const buyerAddressCountry = document.to.address?.country;
  let payable: ReturnType<NationalContext['payable']> | undefined;
  const context: NationalContext = {
    document,
    out,
    supplierCountry,
    customerCountry: vatCountry(document.to.tax_id) ?? buyerAddressCountry ?? 'XX',
    sellerAddressCountry,
    buyerAddressCountry,
    payable: () => (payable ??= calculate(document).totals.payable),
  };
  byAddress?.(context);
  if (byVat && byVat !== byAddress) byVat(context);
}
