import Decimal from 'decimal.js';

import vatex from '../data/vatex-codes.json';
import { categoryOf, EXEMPT_CATEGORIES, taxTreatment, type TaxedItem } from './calculate';
import type { DocumentInput, TaxCategory } from './input';
import { checkStandardRates } from './vat-rates';
import type { Violation } from './violation';

/**
 * VAT checks of EN 16931 / Peppol (reference part A.14, A.15): the rate each
 * category needs, exemption reasons and VATEX codes, who must be identified
 * by a VAT id, and category O, which stands alone.
 */

/** Rule family prefix of each category in the EN 16931 rule ids (K is "IC", L "AF", M "AG"). */
const RULE_FAMILY: Record<TaxCategory, string> = {
  S: 'S',
  Z: 'Z',
  E: 'E',
  AE: 'AE',
  K: 'IC',
  G: 'G',
  O: 'O',
  L: 'AF',
  M: 'AG',
};

/** Where an item sits decides the number of its rule: BR-x-05/06/07 for the rate, BR-x-02/03/04 for VAT ids. */
type Kind = 'line' | 'allowance' | 'charge';
const RATE_RULE: Record<Kind, string> = { line: '05', allowance: '06', charge: '07' };
const PARTY_RULE: Record<Kind, string> = { line: '02', allowance: '03', charge: '04' };
/** Every line, allowance and charge has a VAT category (BR-CO-04, BR-32, BR-37). */
const CATEGORY_RULE: Record<Kind, string> = { line: 'BR-CO-04', allowance: 'BR-32', charge: 'BR-37' };

/** The VATEX list (BR-CL-22) and the codes Peppol ties to one category (P0104…P0111), as data. */
const VATEX_CODES: ReadonlySet<string> = new Set(vatex.codes);
const VATEX_SINGLE_CATEGORY = new Map<string, { category: string; rule: string }>(
  Object.entries(vatex.single_category),
);

interface Item {
  item: TaxedItem;
  path: string;
  kind: Kind;
  category: TaxCategory | undefined;
}

function itemsOf(document: DocumentInput): Item[] {
  const items: Item[] = document.lines.map((item, index) => ({
    item,
    path: `lines[${index}]`,
    kind: 'line',
    category: categoryOf(item),
  }));
  (document.allowances ?? []).forEach((item, index) =>
    items.push({ item, path: `allowances[${index}]`, kind: 'allowance', category: categoryOf(item) }),
  );
  (document.charges ?? []).forEach((item, index) =>
    items.push({ item, path: `charges[${index}]`, kind: 'charge', category: categoryOf(item) }),
  );
  return items;
}

/** True when every line, allowance and charge is in category O: such a document states no VAT id (BR-O-02…04). */
export function isNotSubjectToVat(document: DocumentInput): boolean {
  const all = [...document.lines, ...(document.allowances ?? []), ...(document.charges ?? [])];
  return all.every((item) => item.tax_category === 'O');
}

export function checkVat(document: DocumentInput, out: Violation[]): void {
  const items = itemsOf(document);
  for (const entry of items) checkTax(entry, out);
  checkStandardRates(document, out);
  checkNotSubjectToVat(document, items, out);
  checkIdentifiers(document, items, out);
  checkOneReasonPerBreakdown(items, out);
}

function checkTax({ item, path, kind, category }: Item, out: Violation[]): void {
  if (!category) {
    out.push({
      path: `${path}.tax_category`,
      rule: CATEGORY_RULE[kind],
      message:
        'A 0 % rate is ambiguous: set tax_category to Z (zero rated), E (exempt), AE (reverse charge), K (intra-community), G (export) or O (not subject to VAT).',
    });
    return;
  }
  const family = RULE_FAMILY[category];
  const rateRule = `BR-${family}-${RATE_RULE[kind]}`;
  if (category === 'O') {
    if (item.tax_rate !== undefined) {
      out.push({
        path: `${path}.tax_rate`,
        rule: rateRule,
        message: 'Category O (not subject to VAT) has no VAT rate at all: leave tax_rate out.',
      });
    }
  } else if (item.tax_rate !== undefined) {
    const rate = new Decimal(item.tax_rate);
    if (rate.isNegative())
      out.push({ path: `${path}.tax_rate`, rule: rateRule, message: 'A VAT rate cannot be negative.' });
    else if (category === 'S' && rate.isZero())
      out.push({ path: `${path}.tax_rate`, rule: rateRule, message: 'Standard rate (S) needs a rate above 0.' });
    else if (EXEMPT_CATEGORIES.has(category) || category === 'Z') {
      if (!rate.isZero())
        out.push({ path: `${path}.tax_rate`, rule: rateRule, message: `Category ${category} needs a rate of 0.` });
    }
  }

  const exempt = EXEMPT_CATEGORIES.has(category);
  if (!exempt && (item.tax_exemption_reason || item.tax_exemption_reason_code)) {
    out.push({
      path: `${path}.tax_exemption_reason`,
      rule: `BR-${family}-10`,
      message: `Category ${category} carries no exemption reason; remove it.`,
    });
    return;
  }
  if (!exempt) return;
  const treatment = taxTreatment(item);
  if (!treatment.exemptionCode && !treatment.exemptionReason) {
    out.push({
      path: `${path}.tax_exemption_reason_code`,
      rule: `BR-${family}-10`,
      message: `Category ${category} needs an exemption reason: tax_exemption_reason_code (VATEX, e.g. VATEX-EU-132) and/or tax_exemption_reason.`,
    });
  }
  const code = item.tax_exemption_reason_code?.toUpperCase();
  if (code === undefined) return;
  if (!VATEX_CODES.has(code)) {
    out.push({
      path: `${path}.tax_exemption_reason_code`,
      rule: 'BR-CL-22',
      message: `${item.tax_exemption_reason_code} is not in the VATEX code list; use a code such as VATEX-EU-132-1I, VATEX-EU-AE or VATEX-EU-O, or send only tax_exemption_reason.`,
    });
    return;
  }
  const single = VATEX_SINGLE_CATEGORY.get(code);
  if (single && single.category !== category) {
    out.push({
      path: `${path}.tax_exemption_reason_code`,
      rule: single.rule,
      message: `${code} is used only with category ${single.category}, not ${category}.`,
    });
  }
}

/**
 * Category O stands alone (BR-O-11…14), and a document not subject to VAT
 * names no VAT id of seller or buyer (BR-O-02…04; the company's own VAT id
 * is left out of such documents, see withCompanyDefaults).
 */
function checkNotSubjectToVat(document: DocumentInput, items: Item[], out: Violation[]): void {
  const firstO = items.find((entry) => entry.category === 'O');
  if (!firstO) return;
  const others = items.filter((entry) => entry.category !== undefined && entry.category !== 'O');
  if (others.length > 0) {
    out.push({
      path: `${firstO.path}.tax_category`,
      rule: 'BR-O-11',
      message:
        'A document with category O (not subject to VAT) has no other VAT category: send the other items in a separate document.',
    });
    const rule: Record<Kind, string> = { line: 'BR-O-12', allowance: 'BR-O-13', charge: 'BR-O-14' };
    for (const entry of others) {
      out.push({
        path: `${entry.path}.tax_category`,
        rule: rule[entry.kind],
        message: `Category ${entry.category} cannot be combined with category O (not subject to VAT) on ${firstO.path}.`,
      });
    }
  }
  const rule = `BR-O-${PARTY_RULE[firstO.kind]}`;
  if (document.from.tax_id) {
    out.push({
      path: 'from.tax_id',
      rule,
      message:
        'A document not subject to VAT (category O) carries no seller VAT identifier: leave from.tax_id out (the company’s own is left out by itself).',
    });
  }
  if (document.to.tax_id) {
    out.push({
      path: 'to.tax_id',
      rule,
      message:
        'A document not subject to VAT (category O) carries no buyer VAT identifier: leave to.tax_id out (send to.company_registration_id instead).',
    });
  }
}

/** Who must be identified how, per category (BR-x-02…04, BR-IC-11/12). */
function checkIdentifiers(document: DocumentInput, items: Item[], out: Violation[]): void {
  const needsSellerVat = items.find((entry) => entry.category !== undefined && entry.category !== 'O');
  if (needsSellerVat?.category && !document.from.tax_id) {
    const { category, kind } = needsSellerVat;
    out.push({
      path: 'from.tax_id',
      rule: `BR-${RULE_FAMILY[category]}-${PARTY_RULE[kind]}`,
      message: `Category ${category} needs the seller VAT identifier (set tax_id on the company or in from.tax_id).`,
    });
  }
  const reverseCharge = items.find((entry) => entry.category === 'AE');
  if (reverseCharge && !document.to.tax_id && !document.to.company_registration_id) {
    out.push({
      path: 'to.tax_id',
      rule: `BR-AE-${PARTY_RULE[reverseCharge.kind]}`,
      message: 'Reverse charge (AE) needs the buyer VAT identifier or legal registration id.',
    });
  }
  const intraCommunity = items.find((entry) => entry.category === 'K');
  if (intraCommunity) {
    if (!document.to.tax_id) {
      out.push({
        path: 'to.tax_id',
        rule: `BR-IC-${PARTY_RULE[intraCommunity.kind]}`,
        message: 'Intra-community supply (K) needs the buyer VAT identifier.',
      });
    }
    if (!document.delivery?.date && !document.period) {
      out.push({
        path: 'delivery.date',
        rule: 'BR-IC-11',
        message: 'Intra-community supply (K) needs the delivery date or an invoicing period.',
      });
    }
    if (!document.delivery?.country)
      out.push({
        path: 'delivery.country',
        rule: 'BR-IC-12',
        message: 'Intra-community supply (K) needs the deliver-to country.',
      });
  }
}

/** One breakdown per exempt category carries one reason, so all items of it must agree (UBL-SR-32). */
function checkOneReasonPerBreakdown(items: Item[], out: Violation[]): void {
  const seen = new Map<TaxCategory, string>();
  for (const { item, category } of items) {
    if (!category || !EXEMPT_CATEGORIES.has(category)) continue;
    const treatment = taxTreatment(item);
    const reason = `${treatment.exemptionCode ?? ''}|${treatment.exemptionReason ?? ''}`;
    const first = seen.get(category);
    if (first === undefined) seen.set(category, reason);
    else if (first !== reason) {
      out.push({
        path: 'lines',
        rule: 'UBL-SR-32',
        message: `All items in category ${category} must give the same exemption reason (one VAT breakdown carries one).`,
      });
      return;
    }
  }
}
