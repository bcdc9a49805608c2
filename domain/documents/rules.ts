import Decimal from 'decimal.js';

import { peppolIdProblem } from '../peppol/ids';
import { checkAttachments } from './attachments';
import { isCurrencyCode } from './currencies';
import type { DocumentInput, PartyInput } from './input';
import { legalIdScheme } from './legal-id';
import { checkNationalRules } from './national';
import { checkVat } from './vat-rules';
import type { Violation } from './violation';
import { PINT_AUNZ_COUNTRIES } from '../ubl/xml';

export type { Violation } from './violation';

/**
 * Checks of meaning, run before conversion, so a client learns every problem
 * at once, each with the JSON path, the EN 16931 / Peppol rule it breaks, and
 * what to do. They follow the official rules; where the two disagree, these
 * are the ones to fix (the conformance tests run the official artefacts).
 * VAT checks are in vat-rules.ts, the country rules of the Peppol schematron
 * in national/.
 */

/** Unit codes people often send that UN/ECE Rec 20 does not have (BR-CL-23). */
const NOT_REC20: Record<string, string> = {
  PCE: 'H87 (piece) or C62 (one)',
  PCS: 'H87 (piece)',
  PC: 'H87 (piece)',
  ST: 'H87 (piece)',
};

/** Peppol format and check-digit rules per EAS scheme (PEPPOL-COMMON-R040…R050). */
const IDENTIFIER_RULE: Record<string, string> = {
  '0088': 'PEPPOL-COMMON-R040',
  '0192': 'PEPPOL-COMMON-R041',
  '0184': 'PEPPOL-COMMON-R042',
  '0208': 'PEPPOL-COMMON-R043',
  '0007': 'PEPPOL-COMMON-R049',
  '0151': 'PEPPOL-COMMON-R050',
};

const SCHEME_PROBLEM = /EAS code|scheme:id/;
const VAT_ID = /^[A-Z]{2}[0-9A-Za-z+*.]{2,}$/;

const decimals = (value: string) => (value.split('.')[1] ?? '').length;

function checkParty(party: PartyInput, path: 'from' | 'to', out: Violation[]): void {
  const seller = path === 'from';
  if (!party.name)
    out.push({
      path: `${path}.name`,
      rule: seller ? 'BR-06' : 'BR-07',
      message: `The ${seller ? 'seller' : 'buyer'} name is required.`,
    });
  if (!party.address?.country) {
    out.push({
      path: `${path}.address.country`,
      rule: seller ? 'BR-09' : 'BR-11',
      message: `The ${seller ? 'seller' : 'buyer'} country is required.`,
    });
  }
  if (!party.peppol_id) {
    out.push({
      path: `${path}.peppol_id`,
      rule: seller ? 'PEPPOL-EN16931-R020' : 'PEPPOL-EN16931-R010',
      message: `The ${seller ? 'seller' : 'buyer'} Peppol id (scheme:id) is required${seller ? '; set it on the company or in from.peppol_id' : ''}.`,
    });
  } else {
    const problem = peppolIdProblem(party.peppol_id);
    const scheme = party.peppol_id.split(':')[0] ?? '';
    if (problem) {
      out.push({
        path: `${path}.peppol_id`,
        rule: SCHEME_PROBLEM.test(problem) ? 'PEPPOL-EN16931-CL008' : (IDENTIFIER_RULE[scheme] ?? null),
        message: `Invalid Peppol id: ${problem}.`,
      });
    }
  }
  // The legal id is written with the scheme of its national register (legal-id.ts), whose check digits Peppol then
  // checks. 0184 has none, and its pattern there already is the format PEPPOL-COMMON-R042 accepts (with or without DK).
  const registration = party.company_registration_id;
  const registrationScheme = legalIdScheme(party.address?.country, registration);
  if (registration && registrationScheme && registrationScheme !== '0184' && IDENTIFIER_RULE[registrationScheme]) {
    const problem = peppolIdProblem(`${registrationScheme}:${registration}`);
    if (problem) {
      out.push({
        path: `${path}.company_registration_id`,
        rule: IDENTIFIER_RULE[registrationScheme],
        message: `Invalid legal registration id (scheme ${registrationScheme}): ${problem}.`,
      });
    }
  }
  if (party.tax_id && !VAT_ID.test(party.tax_id)) {
    out.push({
      path: `${path}.tax_id`,
      rule: 'BR-CO-09',
      message: 'A VAT identifier starts with its country prefix, e.g. BE0123456749 (EL for Greece).',
    });
  }
}

/** The document currency (BT-5) must be one Peppol takes (ISO 4217 without the codes for no currency, such as XXX); `path` names it in the syntax it came in. */
export const currencyViolations = (currency: string, path: string): Violation[] =>
  isCurrencyCode(currency)
    ? []
    : [{ path, rule: 'PEPPOL-EN16931-CL007', message: `${currency} is not an ISO 4217 currency code Peppol takes.` }];

export function checkDocument(document: DocumentInput): Violation[] {
  const out: Violation[] = [];
  checkHeader(document, out);
  checkParties(document, out);
  checkLines(document, out);
  checkDocumentAmounts(document, out);
  checkVat(document, out);
  checkPayment(document, out);
  checkAttachments(document.attachments ?? [], out);
  checkNationalRules(document, out);
  return out;
}

/** References, the profile's own needs, the currency and the invoicing period. */
function checkHeader(document: DocumentInput, out: Violation[]): void {
  if (!document.buyer_reference && !document.order_reference) {
    out.push({
      path: 'buyer_reference',
      rule: 'PEPPOL-EN16931-R003',
      message: 'Send buyer_reference (the buyer’s reference) or order_reference (their purchase order number).',
    });
  }
  const sellerCountry = document.from.address?.country;
  if (document.profile === 'pint' && !PINT_AUNZ_COUNTRIES.includes(sellerCountry ?? '')) {
    out.push({
      path: 'profile',
      rule: null,
      message: `PINT is sent here in its A-NZ specialisation, for sellers in Australia or New Zealand; this seller is in ${sellerCountry ?? 'no country'}: send it as peppol.`,
    });
  }
  if (document.profile === 'xrechnung' && !document.buyer_reference) {
    out.push({
      path: 'buyer_reference',
      rule: 'BR-DE-15',
      message: 'An XRechnung needs the buyer reference (BT-10): for a German public buyer, its Leitweg-ID.',
    });
  }
  out.push(...currencyViolations(document.currency, 'currency'));
  if (document.period && document.period.end < document.period.start)
    out.push({ path: 'period.end', rule: 'BR-29', message: 'The period ends before it starts.' });
}

/** The seller and buyer, the seller's identifier, and the deliver-to address. */
function checkParties(document: DocumentInput, out: Violation[]): void {
  checkParty(document.from, 'from', out);
  checkParty(document.to, 'to', out);
  if (!document.from.tax_id && !document.from.company_registration_id) {
    out.push({
      path: 'from.company_registration_id',
      rule: 'BR-CO-26',
      message: 'The seller needs a VAT identifier or a legal registration id (set them on the company or in from).',
    });
  }
  const delivery = document.delivery;
  if (delivery && (delivery.street || delivery.city || delivery.postal_code) && !delivery.country) {
    out.push({ path: 'delivery.country', rule: 'BR-57', message: 'A deliver-to address needs its country.' });
  }
}

/** Each line's price, unit, and its allowances and charges. */
function checkLines(document: DocumentInput, out: Violation[]): void {
  document.lines.forEach((line, index) => {
    const path = `lines[${index}]`;
    if (new Decimal(line.unit_price).isNegative())
      out.push({
        path: `${path}.unit_price`,
        rule: 'BR-27',
        message: 'The net price cannot be negative; use a negative quantity instead.',
      });
    if (NOT_REC20[line.unit])
      out.push({
        path: `${path}.unit`,
        rule: 'BR-CL-23',
        message: `${line.unit} is not a UN/ECE Rec 20 unit code; use ${NOT_REC20[line.unit]}.`,
      });
    for (const kind of ['allowances', 'charges'] as const) {
      (line[kind] ?? []).forEach((entry, entryIndex) => {
        if (decimals(entry.amount) > 2)
          out.push({
            path: `${path}.${kind}[${entryIndex}].amount`,
            rule: 'BR-DEC-24',
            message: 'Amounts have at most 2 decimals.',
          });
        checkReason(entry, `${path}.${kind}[${entryIndex}]`, kind === 'allowances' ? 'BR-42' : 'BR-44', out);
      });
    }
  });
}

/** The document level allowances and charges, and the amounts of the payment. */
function checkDocumentAmounts(document: DocumentInput, out: Violation[]): void {
  for (const kind of ['allowances', 'charges'] as const) {
    (document[kind] ?? []).forEach((entry, index) => {
      if (decimals(entry.amount) > 2)
        out.push({
          path: `${kind}[${index}].amount`,
          rule: kind === 'allowances' ? 'BR-DEC-01' : 'BR-DEC-05',
          message: 'Amounts have at most 2 decimals.',
        });
      checkReason(entry, `${kind}[${index}]`, kind === 'allowances' ? 'BR-33' : 'BR-38', out);
    });
  }
  if (document.payment?.prepaid_amount && decimals(document.payment.prepaid_amount) > 2) {
    out.push({ path: 'payment.prepaid_amount', rule: 'BR-DEC-18', message: 'Amounts have at most 2 decimals.' });
  }
  if (document.payment?.rounding_amount && decimals(document.payment.rounding_amount) > 2) {
    out.push({ path: 'payment.rounding_amount', rule: 'BR-DEC-17', message: 'Amounts have at most 2 decimals.' });
  }
  out.push(...payableRoundingViolations(document.payment?.rounding_amount, 'payment.rounding_amount'));
}

/**
 * Our rule on the payable rounding amount (BT-114), which EN 16931 leaves unbounded.
 * @internal
 */
export const PAYABLE_ROUNDING_RULE = 'EINVOICE-BT114';

/**
 * The payable rounding amount (BT-114) only rounds the amount due to a round figure, so it is less than one unit
 * of the currency either way; a larger one would be a second amount due that nothing explains. `path` names the
 * field as the client wrote it (the JSON path, or the UBL element).
 */
export function payableRoundingViolations(rounding: string | null | undefined, path: string): Violation[] {
  if (!rounding || new Decimal(rounding).abs().lessThan(1)) return [];
  return [
    {
      path,
      rule: PAYABLE_ROUNDING_RULE,
      message: `The payable rounding amount (BT-114) is ${rounding}; it only rounds the amount due, so it is less than 1 (one unit of the currency) either way.`,
    },
  ];
}

/** An allowance or charge says why: in words, by code, or both. */
function checkReason(
  entry: { reason?: string | undefined; reason_code?: string | undefined },
  path: string,
  rule: string,
  out: Violation[],
): void {
  if (!entry.reason && !entry.reason_code)
    out.push({
      path: `${path}.reason`,
      rule,
      message: 'Say why: reason (in words) or reason_code (UNCL5189 for allowances, UNCL7161 for charges).',
    });
}

function checkPayment(document: DocumentInput, out: Violation[]): void {
  const code = document.payment?.means_code;
  if ((code === '30' || code === '58') && !document.payment?.iban) {
    out.push({
      path: 'payment.iban',
      rule: 'BR-61',
      message: `Payment means ${code} (credit transfer) needs the account (payment.iban).`,
    });
  }
  if ((code === '49' || code === '59') && !document.payment?.mandate_reference) {
    out.push({
      path: 'payment.mandate_reference',
      rule: 'PEPPOL-EN16931-R061',
      message: `Payment means ${code} (direct debit) needs the mandate reference (payment.mandate_reference).`,
    });
  }
}
