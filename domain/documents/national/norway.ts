import { isNorwegianOrgNumber } from './checksums';
import type { NationalContext } from './context';

/**
 * Rules NO-R-* for Norwegian sellers (by VAT id, else address). NO-R-002
 * (the word "Foretaksregisteret" as a tax registration) is a warning, and
 * this API does not write a seller tax registration; it is not checked.
 */

const NORWEGIAN_VAT = /^NO\d{9}MVA$/;

export function norway(context: NationalContext): void {
  if (context.supplierCountry !== 'NO') return;
  const vat = context.document.from.tax_id;
  if (vat?.startsWith('NO') && !(NORWEGIAN_VAT.test(vat) && isNorwegianOrgNumber(vat.slice(2, 11)))) {
    context.out.push({
      path: 'from.tax_id',
      rule: 'NO-R-001',
      message:
        'A Norwegian VAT identifier is NO, the 9-digit organisation number (with its check digit) and MVA, e.g. NO974760673MVA.',
    });
  }
}
