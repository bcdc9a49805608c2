import Decimal from 'decimal.js';

import { peppolIdProblem } from '../peppol-id';
import { checkAttachments } from './attachments';
import { categoryOf, EXEMPT_CATEGORIES, taxTreatment } from './calculate';
import { isCurrencyCode } from './currencies';
import type { DocumentInput, PartyInput, TaxCategory } from './input';

/**
 * Checks of meaning, run before conversion, so a client learns every problem
 * at once, each with the JSON path, the EN 16931 / Peppol rule it breaks, and
 * what to do. They follow the official rules; where the two disagree, these
 * are the ones to fix (the conformance tests run the official artefacts).
 */

export interface Violation {
  path: string;
  rule: string | null;
  message: string;
}

/** Rule family prefix of each category in the EN 16931 rule ids (K is "IC", L "AF", M "AG"). */
const RULE_FAMILY: Record<TaxCategory, string> = { S: 'S', Z: 'Z', E: 'E', AE: 'AE', K: 'IC', G: 'G', O: 'O', L: 'AF', M: 'AG' };

/** VATEX codes Peppol ties to one category (PEPPOL-EN16931-P0104…P0111). */
const VATEX_CATEGORY: Record<string, TaxCategory> = {
  'VATEX-EU-G': 'G',
  'VATEX-EU-O': 'O',
  'VATEX-EU-IC': 'K',
  'VATEX-EU-AE': 'AE',
  'VATEX-EU-D': 'E',
  'VATEX-EU-F': 'E',
  'VATEX-EU-I': 'E',
  'VATEX-EU-J': 'E',
};

/** Unit codes people often send that UN/ECE Rec 20 does not have (BR-CL-23). */
const NOT_REC20: Record<string, string> = { PCE: 'H87 (piece) or C62 (one)', PCS: 'H87 (piece)', PC: 'H87 (piece)', ST: 'H87 (piece)' };

/** Peppol check-digit rules per EAS scheme (PEPPOL-COMMON-R040…R050). */
const IDENTIFIER_RULE: Record<string, string> = {
  '0088': 'PEPPOL-COMMON-R040',
  '0192': 'PEPPOL-COMMON-R041',
  '0184': 'PEPPOL-COMMON-R042',
  '0208': 'PEPPOL-COMMON-R043',
  '0007': 'PEPPOL-COMMON-R049',
  '0151': 'PEPPOL-COMMON-R050',
};

const decimals = (value: string) => (value.split('.')[1] ?? '').length;

function checkParty(party: PartyInput, path: 'from' | 'to', out: Violation[]): void {
  const seller = path === 'from';
  if (!party.name) out.push({ path: `${path}.name`, rule: seller ? 'BR-06' : 'BR-07', message: `The ${seller ? 'seller' : 'buyer'} name is required.` });
  if (!party.address?.country) {
    out.push({ path: `${path}.address.country`, rule: seller ? 'BR-09' : 'BR-11', message: `The ${seller ? 'seller' : 'buyer'} country is required.` });
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
        rule: /EAS code|scheme:id/.test(problem) ? 'PEPPOL-EN16931-CL008' : (IDENTIFIER_RULE[scheme] ?? null),
        message: `Invalid Peppol id: ${problem}.`,
      });
    }
  }
  if (party.tax_id && !/^[A-Z]{2}[0-9A-Za-z+*.]{2,}$/.test(party.tax_id)) {
    out.push({ path: `${path}.tax_id`, rule: 'BR-CO-09', message: 'A VAT identifier starts with its country prefix, e.g. BE0123456749 (EL for Greece).' });
  }
}

function checkTax(
  item: { tax_rate: string; tax_category?: TaxCategory | undefined; tax_exemption_reason?: string | undefined; tax_exemption_reason_code?: string | undefined },
  path: string,
  out: Violation[],
): void {
  const category = categoryOf(item);
  const rate = new Decimal(item.tax_rate);
  if (!category) {
    out.push({
      path: `${path}.tax_category`,
      rule: null,
      message: 'A 0 % rate is ambiguous: set tax_category to Z (zero rated), E (exempt), AE (reverse charge), K (intra-community), G (export) or O (not subject to VAT).',
    });
    return;
  }
  const family = RULE_FAMILY[category];
  if (rate.isNegative()) out.push({ path: `${path}.tax_rate`, rule: null, message: 'A VAT rate cannot be negative.' });
  if (category === 'S' && !rate.greaterThan(0)) out.push({ path: `${path}.tax_rate`, rule: 'BR-S-05', message: 'Standard rate (S) needs a rate above 0.' });
  if (['Z', 'E', 'AE', 'K', 'G', 'O'].includes(category) && !rate.isZero()) {
    out.push({ path: `${path}.tax_rate`, rule: `BR-${family}-05`, message: `Category ${category} needs a rate of 0.` });
  }
  const exempt = EXEMPT_CATEGORIES.has(category);
  const treatment = taxTreatment(item);
  if (!exempt && (item.tax_exemption_reason || item.tax_exemption_reason_code)) {
    out.push({ path: `${path}.tax_exemption_reason`, rule: `BR-${family}-10`, message: `Category ${category} carries no exemption reason; remove it.` });
  }
  if (exempt && !treatment.exemptionCode && !treatment.exemptionReason) {
    out.push({
      path: `${path}.tax_exemption_reason_code`,
      rule: `BR-${family}-10`,
      message: `Category ${category} needs an exemption reason: tax_exemption_reason_code (VATEX, e.g. VATEX-EU-132) and/or tax_exemption_reason.`,
    });
  }
  const code = item.tax_exemption_reason_code;
  if (code && !/^VATEX-[A-Z0-9-]+$/.test(code)) {
    out.push({ path: `${path}.tax_exemption_reason_code`, rule: 'BR-CL-22', message: 'Exemption reason codes come from the VATEX list, e.g. VATEX-EU-AE.' });
  }
  if (code && VATEX_CATEGORY[code] && VATEX_CATEGORY[code] !== category) {
    out.push({ path: `${path}.tax_exemption_reason_code`, rule: 'PEPPOL-EN16931-P0104', message: `${code} belongs to category ${VATEX_CATEGORY[code]}, not ${category}.` });
  }
}

export function checkDocument(document: DocumentInput): Violation[] {
  const out: Violation[] = [];
  if (!document.buyer_reference && !document.order_reference) {
    out.push({ path: 'buyer_reference', rule: 'PEPPOL-EN16931-R003', message: 'Send buyer_reference (the buyer’s reference) or order_reference (their purchase order number).' });
  }
  if (!isCurrencyCode(document.currency)) out.push({ path: 'currency', rule: 'PEPPOL-EN16931-CL007', message: `${document.currency} is not an ISO 4217 currency code.` });
  if (document.period && document.period.end < document.period.start) out.push({ path: 'period.end', rule: 'BR-29', message: 'The period ends before it starts.' });
  checkParty(document.from, 'from', out);
  checkParty(document.to, 'to', out);

  document.lines.forEach((line, index) => {
    const path = `lines[${index}]`;
    if (new Decimal(line.unit_price).isNegative()) out.push({ path: `${path}.unit_price`, rule: 'BR-27', message: 'The net price cannot be negative; use a negative quantity instead.' });
    if (NOT_REC20[line.unit]) out.push({ path: `${path}.unit`, rule: 'BR-CL-23', message: `${line.unit} is not a UN/ECE Rec 20 unit code; use ${NOT_REC20[line.unit]}.` });
    checkTax(line, path, out);
    for (const kind of ['allowances', 'charges'] as const) {
      (line[kind] ?? []).forEach((entry, entryIndex) => {
        if (decimals(entry.amount) > 2) out.push({ path: `${path}.${kind}[${entryIndex}].amount`, rule: 'BR-DEC-24', message: 'Amounts have at most 2 decimals.' });
      });
    }
  });
  for (const kind of ['allowances', 'charges'] as const) {
    (document[kind] ?? []).forEach((entry, index) => {
      const path = `${kind}[${index}]`;
      if (decimals(entry.amount) > 2) out.push({ path: `${path}.amount`, rule: kind === 'allowances' ? 'BR-DEC-01' : 'BR-DEC-05', message: 'Amounts have at most 2 decimals.' });
      checkTax(entry, path, out);
    });
  }
  if (document.payment?.prepaid_amount && decimals(document.payment.prepaid_amount) > 2) {
    out.push({ path: 'payment.prepaid_amount', rule: 'BR-DEC-18', message: 'Amounts have at most 2 decimals.' });
  }

  const taxed = [...document.lines, ...(document.allowances ?? []), ...(document.charges ?? [])];
  const categories = new Set(taxed.map((item) => categoryOf(item)).filter((category): category is TaxCategory => category !== undefined));
  checkCategoryRequirements(document, categories, out);
  checkOneReasonPerBreakdown(taxed, out);
  checkPayment(document, out);
  checkAttachments(document.attachments ?? [], out);
  return out;
}

/** Who must be identified how, per category (BR-x-02…04, BR-IC-11/12, BR-O-11…14). */
function checkCategoryRequirements(document: DocumentInput, categories: Set<TaxCategory>, out: Violation[]): void {
  if (categories.has('O') && categories.size > 1) {
    out.push({ path: 'lines', rule: 'BR-O-11', message: 'A document with category O (not subject to VAT) cannot have lines, allowances or charges in other categories.' });
  }
  const needsSellerVat = [...categories].filter((category) => category !== 'O');
  if (needsSellerVat.length > 0 && !document.from.tax_id) {
    const family = RULE_FAMILY[needsSellerVat[0]!];
    out.push({ path: 'from.tax_id', rule: `BR-${family}-02`, message: `Category ${needsSellerVat[0]} needs the seller VAT identifier (set tax_id on the company or in from.tax_id).` });
  }
  if (categories.has('AE') && !document.to.tax_id && !document.to.company_registration_id) {
    out.push({ path: 'to.tax_id', rule: 'BR-AE-02', message: 'Reverse charge (AE) needs the buyer VAT identifier or legal registration id.' });
  }
  if (categories.has('K')) {
    if (!document.to.tax_id) out.push({ path: 'to.tax_id', rule: 'BR-IC-02', message: 'Intra-community supply (K) needs the buyer VAT identifier.' });
    if (!document.delivery?.date && !document.period) {
      out.push({ path: 'delivery.date', rule: 'BR-IC-11', message: 'Intra-community supply (K) needs the delivery date or an invoicing period.' });
    }
    if (!document.delivery?.country) out.push({ path: 'delivery.country', rule: 'BR-IC-12', message: 'Intra-community supply (K) needs the deliver-to country.' });
  }
}

/** One breakdown per exempt category carries one reason, so all items of it must agree (UBL-SR-32). */
function checkOneReasonPerBreakdown(
  items: { tax_rate: string; tax_category?: TaxCategory | undefined; tax_exemption_reason?: string | undefined; tax_exemption_reason_code?: string | undefined }[],
  out: Violation[],
): void {
  const seen = new Map<TaxCategory, string>();
  for (const item of items) {
    const treatment = taxTreatment(item);
    if (!EXEMPT_CATEGORIES.has(treatment.category) || !categoryOf(item)) continue;
    const reason = `${treatment.exemptionCode ?? ''}|${treatment.exemptionReason ?? ''}`;
    const first = seen.get(treatment.category);
    if (first === undefined) seen.set(treatment.category, reason);
    else if (first !== reason) {
      out.push({ path: 'lines', rule: 'UBL-SR-32', message: `All items in category ${treatment.category} must give the same exemption reason (one VAT breakdown carries one).` });
      return;
    }
  }
}

function checkPayment(document: DocumentInput, out: Violation[]): void {
  const code = document.payment?.means_code;
  if ((code === '30' || code === '58') && !document.payment?.iban) {
    out.push({ path: 'payment.iban', rule: 'BR-61', message: `Payment means ${code} (credit transfer) needs the account (payment.iban).` });
  }
  if (code === '49' || code === '59') {
    out.push({ path: 'payment.means_code', rule: 'PEPPOL-EN16931-R061', message: 'Direct debit needs a mandate reference, which this API does not take yet; use 30 or 58.' });
  }
}
