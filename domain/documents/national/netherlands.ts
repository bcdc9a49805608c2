import { legalIdScheme } from '../legal-id';
import { paymentMeansCode } from '../payment';
import type { PartyInput } from '../input';
import type { Violation } from '../violation';
import { requireAddress, type NationalContext } from './context';

/** Rules NL-R-* for sellers with a Dutch address. NL-R-006 (tax representative) and NL-R-009 (order line references) concern data this API does not write. */

/** Payment means a Dutch seller may use towards a Dutch buyer (NL-R-008). */
const DOMESTIC_MEANS = new Set(['30', '48', '49', '57', '58', '59']);

/** A legal id, when given, is a KvK number (0106, 8 digits) or an OIN (0190, 20 digits); legal-id.ts writes the scheme. */
function requireDutchRegistration(party: PartyInput, path: 'from' | 'to', rule: string, out: Violation[]): void {
  const id = party.company_registration_id;
  if (id && !legalIdScheme('NL', id)) {
    out.push({
      path: `${path}.company_registration_id`,
      rule,
      message: 'A Dutch legal registration id is a KvK number (8 digits) or an OIN (20 digits).',
    });
  }
}

export function netherlands(context: NationalContext): void {
  const { document, out } = context;
  if (context.sellerAddressCountry !== 'NL') return;
  const domestic = context.buyerAddressCountry === 'NL';
  if (document.type === 'credit_note' && !document.invoice_reference) {
    out.push({
      path: 'invoice_reference',
      rule: 'NL-R-001',
      message: 'A credit note from a Dutch seller names the invoice it corrects: send invoice_reference.number.',
    });
  }
  requireAddress(
    document.from,
    'from',
    { street: 'NL-R-002', city: 'NL-R-002', postal_code: 'NL-R-002' },
    'A Dutch seller',
    out,
  );
  requireDutchRegistration(document.from, 'from', 'NL-R-003', out);
  if (domestic) {
    requireAddress(
      document.to,
      'to',
      { street: 'NL-R-004', city: 'NL-R-004', postal_code: 'NL-R-004' },
      'A Dutch buyer of a Dutch seller',
      out,
    );
    requireDutchRegistration(document.to, 'to', 'NL-R-005', out);
  }
  const code = paymentMeansCode(document);
  if (code === undefined) {
    const payable = context.payable();
    if (document.type === 'invoice' ? payable.greaterThan(0) : payable.lessThan(0)) {
      out.push({
        path: 'payment.iban',
        rule: 'NL-R-007',
        message: 'A Dutch seller says how the amount due is paid: send payment.iban (or set an IBAN on the company).',
      });
    }
  } else if (domestic && !DOMESTIC_MEANS.has(code)) {
    out.push({
      path: document.payment?.means_code ? 'payment.means_code' : 'payment.iban',
      rule: 'NL-R-008',
      message: `Between Dutch parties the payment means is 30, 48, 49, 57, 58 or 59, not ${code}${document.payment?.means_code ? '' : ': send payment.iban for a credit transfer (30)'}.`,
    });
  }
}
