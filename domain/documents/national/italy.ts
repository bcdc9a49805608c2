import { requireAddress, type NationalContext } from './context';

/**
 * Rules IT-R-* for Italian sellers (by VAT id, else address). IT-R-001
 * concerns a seller tax registration (codice fiscale as BT-32), which this
 * API does not write.
 */
export function italy(context: NationalContext): void {
  if (context.supplierCountry !== 'IT') return;
  requireAddress(
    context.document.from,
    'from',
    { street: 'IT-R-002', city: 'IT-R-003', postal_code: 'IT-R-004' },
    'An Italian seller',
    context.out,
  );
}
