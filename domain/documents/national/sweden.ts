import Decimal from 'decimal.js';

import { isSwedishOrgNumber, isXpathNumber } from './checksums';
import { taxedItems, type NationalContext } from './context';

/**
 * Rules SE-R-* for sellers with a Swedish address. SE-R-005 concerns a seller
 * tax registration ("Godkänd för F-skatt"), which this API does not write;
 * SE-R-007…012 are warnings about Bankgiro/Plusgiro accounts.
 */

const SWEDISH_RATES = [new Decimal(25), new Decimal(12), new Decimal(6)];

export function sweden(context: NationalContext): void {
  const { document, out } = context;
  if (context.sellerAddressCountry !== 'SE') return;
  const vat = document.from.tax_id;
  if (vat?.startsWith('SE')) {
    if (vat.length !== 14)
      out.push({
        path: 'from.tax_id',
        rule: 'SE-R-001',
        message: 'A Swedish VAT identifier has 14 characters: SE, the 10-digit organisation number and 01.',
      });
    if (!isXpathNumber(vat.slice(2, 14)))
      out.push({
        path: 'from.tax_id',
        rule: 'SE-R-002',
        message: 'A Swedish VAT identifier is SE followed by 12 digits.',
      });
    for (const item of taxedItems(document)) {
      if ((item.tax_category ?? 'S') !== 'S' || item.tax_rate === undefined) continue;
      const rate = new Decimal(item.tax_rate);
      if (rate.greaterThan(0) && !SWEDISH_RATES.some((allowed) => allowed.equals(rate))) {
        out.push({
          path: `${item.path}.tax_rate`,
          rule: 'SE-R-006',
          message: 'Swedish standard-rated VAT is 25, 12 or 6 %.',
        });
      }
    }
  }
  const registration = document.from.company_registration_id;
  if (registration) {
    if (!isXpathNumber(registration))
      out.push({
        path: 'from.company_registration_id',
        rule: 'SE-R-003',
        message: 'A Swedish organisation number is numeric (no dash).',
      });
    if (registration.length !== 10)
      out.push({
        path: 'from.company_registration_id',
        rule: 'SE-R-004',
        message: 'A Swedish organisation number has 10 digits.',
      });
    if (!isSwedishOrgNumber(registration)) {
      out.push({
        path: 'from.company_registration_id',
        rule: 'SE-R-013',
        message: 'The last digit of a Swedish organisation number is its Luhn check digit, and it does not match.',
      });
    }
  }
}
