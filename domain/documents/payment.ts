import type { DocumentInput } from './input';

/**
 * The payment means code (BT-81) the UBL carries, or undefined when the
 * document has no payment instructions at all. A code the client sends is
 * kept. Without one: credit transfer (30) when there is an account, else 1
 * (instrument not defined); with a direct debit mandate, SEPA direct debit
 * (59). Between two Danish parties 30 is not allowed
 * (DK-R-005), so an account there means SEPA credit transfer (58).
 */
export function paymentMeansCode(document: DocumentInput): string | undefined {
  const payment = document.payment;
  const creditNoteDueDate = document.type === 'credit_note' ? document.due_date : undefined;
  if (
    !payment?.iban &&
    !payment?.means_code &&
    !payment?.reference &&
    !payment?.mandate_reference &&
    !creditNoteDueDate
  )
    return undefined;
  if (payment?.means_code) return payment.means_code;
  if (payment?.mandate_reference) return '59';
  if (!payment?.iban) return '1';
  return document.from.address?.country === 'DK' && document.to.address?.country === 'DK' ? '58' : '30';
}

const LINE_BREAK = /\r?\n/;

/**
 * The payment terms note (BT-20) as the UBL carries it. A cash-discount
 * statement (#SKONTO#…#, the German convention DE-R-018 checks) ends with a
 * line break, which trimmed input cannot hold at its end: the writer adds it.
 */
export function paymentTermsNote(terms: string): string {
  const lastLine = terms.split(LINE_BREAK).at(-1) ?? '';
  return lastLine.trim().startsWith('#') ? `${terms}\n` : terms;
}
