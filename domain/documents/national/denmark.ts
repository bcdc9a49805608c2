import { legalIdScheme } from '../legal-id';
import { paymentMeansCode } from '../payment';
import { isXpathNumber } from './checksums';
import type { NationalContext } from './context';

/**
 * Rules DK-R-* for sellers with a Danish address; most apply only when the
 * buyer is Danish too. Not checked, because this API never writes what they
 * test: DK-R-003 (UNSPSC item classification), DK-R-007 (direct debit
 * mandate; code 49 is refused for all sellers, PEPPOL-EN16931-R061) and
 * DK-R-013 (party identifications).
 */

/** Payment means allowed between Danish parties (DK-R-005). */
const DOMESTIC_MEANS = new Set(['1', '10', '31', '42', '48', '49', '50', '58', '59', '93', '97']);
const GIRO_ACCOUNT = /^[0-9]{7,8}$/;

const startsWithAny = (value: string | undefined, prefixes: string[]) =>
  value !== undefined && prefixes.some((prefix) => value.startsWith(prefix));

export function denmark(context: NationalContext): void {
  const { document, out } = context;
  if (context.sellerAddressCountry !== 'DK') return;
  const domestic = context.buyerAddressCountry === 'DK';
  const registration = document.from.company_registration_id;
  if (!registration) {
    out.push({
      path: 'from.company_registration_id',
      rule: 'DK-R-002',
      message: 'A Danish seller states its CVR number as legal registration id (set it on the company or in from).',
    });
  } else if (legalIdScheme('DK', registration) !== '0184') {
    out.push({
      path: 'from.company_registration_id',
      rule: 'DK-R-014',
      message: 'A Danish seller’s legal registration id is its CVR number: 8 digits (scheme 0184).',
    });
  }
  if (document.type === 'credit_note' && domestic && context.payable().isNegative()) {
    out.push({
      path: 'lines',
      rule: 'DK-R-016',
      message: 'A Danish credit note to a Danish buyer cannot have a negative amount due: send an invoice instead.',
    });
  }
  if (!domestic) return;

  const buyerRegistration = document.to.company_registration_id;
  if (buyerRegistration && legalIdScheme('DK', buyerRegistration) !== '0184') {
    out.push({
      path: 'to.company_registration_id',
      rule: 'DK-R-017',
      message: 'A Danish buyer’s legal registration id is its CVR number: 8 digits (scheme 0184).',
    });
  }
  checkNonVatTaxes(context);
  if (document.type === 'invoice') checkDomesticPayment(context);
}

/** Non-VAT taxes (reason code ZZZ) name their Danish tax category: 4 digits, or a text with an inner # (DK-R-004). */
function checkNonVatTaxes({ document, out }: NationalContext): void {
  const check = (entry: { reason?: string | undefined; reason_code?: string | undefined }, path: string) => {
    if (entry.reason_code !== 'ZZZ') return;
    const reason = entry.reason ?? '';
    const taxCategory = reason.length === 4 && isXpathNumber(reason) && Number(reason) >= 0 && Number(reason) <= 9999;
    const tagged = reason.includes('#') && !reason.startsWith('#') && !reason.endsWith('#');
    if (!taxCategory && !tagged) {
      out.push({
        path: `${path}.reason`,
        rule: 'DK-R-004',
        message:
          'With reason code ZZZ (a non-VAT tax), the reason is the 4-digit Danish tax category, or a text with a # inside it.',
      });
    }
  };
  for (const kind of ['allowances', 'charges'] as const) {
    (document[kind] ?? []).forEach((entry, index) => check(entry, `${kind}[${index}]`));
    document.lines.forEach((line, lineIndex) =>
      (line[kind] ?? []).forEach((entry, index) => check(entry, `lines[${lineIndex}].${kind}[${index}]`)),
    );
  }
}

/** Payment means of an invoice between Danish parties (DK-R-005, DK-R-006, DK-R-008…011). */
function checkDomesticPayment({ document, out }: NationalContext): void {
  const code = paymentMeansCode(document);
  if (code === undefined) return;
  const account = document.payment?.iban;
  const reference = document.payment?.reference;
  if (!DOMESTIC_MEANS.has(code)) {
    out.push({
      path: 'payment.means_code',
      rule: 'DK-R-005',
      message: `Between Danish parties the payment means is one of 1, 10, 31, 42, 48, 49, 50, 58, 59, 93 or 97, not ${code}.`,
    });
  }
  if ((code === '31' || code === '42') && (!account || !document.payment?.bic)) {
    out.push({
      path: account ? 'payment.bic' : 'payment.iban',
      rule: 'DK-R-006',
      message: `Payment means ${code} needs the account (payment.iban) and the bank's registration number (payment.bic).`,
    });
  }
  if (code === '50') {
    if (!startsWithAny(reference, ['01#', '04#', '15#']) || !account || !GIRO_ACCOUNT.test(account)) {
      out.push({
        path: 'payment.reference',
        rule: 'DK-R-008',
        message:
          'Giro (50) needs payment.reference starting with 01#, 04# or 15# and the 7- or 8-digit giro account in payment.iban.',
      });
    }
    if (startsWithAny(reference, ['04#', '15#']) && reference?.length !== 19) {
      out.push({
        path: 'payment.reference',
        rule: 'DK-R-009',
        message: 'After 04# or 15#, the giro reference has its 16-digit instruction id (19 characters in all).',
      });
    }
  }
  if (code === '93') {
    if (!startsWithAny(reference, ['71#', '73#', '75#']) || account?.length !== 8) {
      out.push({
        path: 'payment.reference',
        rule: 'DK-R-010',
        message:
          'FIK (93) needs payment.reference starting with 71#, 73# or 75# and the 8-character creditor number in payment.iban.',
      });
    }
    if (startsWithAny(reference, ['71#', '75#']) && reference?.length !== 18 && reference?.length !== 19) {
      out.push({
        path: 'payment.reference',
        rule: 'DK-R-011',
        message: 'After 71# or 75#, the FIK reference has its 15- or 16-digit instruction id.',
      });
    }
  }
}
