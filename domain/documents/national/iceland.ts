import { legalIdScheme } from '../legal-id';
import { paymentMeansCode } from '../payment';
import type { PartyInput } from '../input';
import type { Violation } from '../violation';
import { requireAddress, type NationalContext } from './context';

/**
 * Rules IS-R-* for sellers with an Icelandic address. IS-R-008…010 apply
 * only to a supporting document described EINDAGI (final due date), which
 * this API does not write, so they cannot be broken; IS-R-001 is a warning
 * (type codes other than 380/381, which this API does not write either).
 */

function requireKennitala(party: PartyInput, path: 'from' | 'to', rule: string, who: string, out: Violation[]): void {
  if (legalIdScheme('IS', party.company_registration_id) !== '0196') {
    out.push({
      path: `${path}.company_registration_id`,
      rule,
      message: `${who} states its kennitala (10 digits) as legal registration id.`,
    });
  }
}

export function iceland(context: NationalContext): void {
  const { document, out } = context;
  if (context.sellerAddressCountry !== 'IS') return;
  requireKennitala(document.from, 'from', 'IS-R-002', 'An Icelandic seller', out);
  requireAddress(document.from, 'from', { street: 'IS-R-003', postal_code: 'IS-R-003' }, 'An Icelandic seller', out);
  if (context.buyerAddressCountry === 'IS') {
    requireKennitala(document.to, 'to', 'IS-R-004', 'An Icelandic buyer of an Icelandic seller', out);
    requireAddress(
      document.to,
      'to',
      { street: 'IS-R-005', postal_code: 'IS-R-005' },
      'An Icelandic buyer of an Icelandic seller',
      out,
    );
  }
  const code = paymentMeansCode(document);
  const account = document.payment?.iban;
  if ((code === '9' || code === '42') && account?.length !== 12) {
    out.push({
      path: 'payment.iban',
      rule: code === '9' ? 'IS-R-006' : 'IS-R-007',
      message: `Payment means ${code} from an Icelandic seller needs the 12-digit account (bank, ledger 66 and account number) in payment.iban.`,
    });
  }
}
