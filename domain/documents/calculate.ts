import Decimal from 'decimal.js';

import type { DocumentAllowanceCharge, DocumentInput, LineInput, TaxCategory } from './input';

/**
 * Money maths of EN 16931 / Peppol BIS 3.0 (reference part A.16), in exact
 * decimals: each line net is rounded once to 2 decimals, VAT is computed per
 * (category, rate) group on the summed taxable amount, and every total is
 * derived from rounded parts, never rounded on its own.
 */

const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Amount = Decimal;

/** Half-up, away from zero for negatives: the one rounding used everywhere. */
const round2 = (value: Decimal.Value): Amount => new Money(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
export const money = (value: Decimal.Value): Amount => new Money(value);
export const formatAmount = (value: Amount): string => value.toFixed(2);
/**
 * An amount a document states (`1300`), as the API shows every amount: two decimals (`1300.00`), or as many as it
 * states beyond two, never rounded (a received document is shown with what it says).
 */
export const formatStatedAmount = (stated: string): string => {
  const value = money(stated);
  return value.decimalPlaces() <= 2 ? formatAmount(value) : value.toFixed();
};

/** Categories whose rate is always 0 and whose breakdown carries an exemption reason. */
export const EXEMPT_CATEGORIES: ReadonlySet<TaxCategory> = new Set(['E', 'AE', 'K', 'G', 'O']);

/** The reason Peppol pairs with categories that have a single canonical one. */
const DEFAULT_EXEMPTIONS: Partial<Record<TaxCategory, { code: string; reason: string }>> = {
  AE: { code: 'VATEX-EU-AE', reason: 'Reverse charge' },
  K: { code: 'VATEX-EU-IC', reason: 'Intra-community supply' },
  G: { code: 'VATEX-EU-G', reason: 'Export outside the EU' },
  O: { code: 'VATEX-EU-O', reason: 'Not subject to VAT' },
};

export interface TaxTreatment {
  category: TaxCategory;
  /** Normalised percent as written in UBL (`21`, `5.5`); null when none was sent (category O, which carries none). */
  rate: string | null;
  exemptionCode?: string | undefined;
  exemptionReason?: string | undefined;
}

interface CalculatedLine {
  input: LineInput;
  tax: TaxTreatment;
  allowanceTotal: Amount;
  chargeTotal: Amount;
  /** BT-131: round2(quantity × price) + charges − allowances. */
  net: Amount;
}

interface CalculatedAllowanceCharge {
  input: DocumentAllowanceCharge;
  isCharge: boolean;
  tax: TaxTreatment;
  amount: Amount;
}

interface TaxGroup extends TaxTreatment {
  taxable: Amount;
  tax: Amount;
}

interface Totals {
  lineExtension: Amount;
  allowanceTotal: Amount;
  chargeTotal: Amount;
  taxExclusive: Amount;
  tax: Amount;
  taxInclusive: Amount;
  prepaid: Amount;
  /** Payable rounding amount (BT-114). */
  rounding: Amount;
  payable: Amount;
}

export interface CalculatedDocument {
  lines: CalculatedLine[];
  allowancesCharges: CalculatedAllowanceCharge[];
  taxGroups: TaxGroup[];
  totals: Totals;
}

/** `21.00` → `21`, `5.50` → `5.5`: equal rates compare equal and are written once. */
const normaliseRate = (rate: string): string => new Money(rate).toString();

/** What a line, allowance or charge says about its VAT. */
export interface TaxedItem {
  tax_rate?: string | undefined;
  tax_category?: TaxCategory | undefined;
  tax_exemption_reason?: string | undefined;
  tax_exemption_reason_code?: string | undefined;
}

/** Category from the input; the default S for a positive rate. Undefined when ambiguous (rate 0 or none, no category). */
export function categoryOf(item: TaxedItem): TaxCategory | undefined {
  if (item.tax_category) return item.tax_category;
  return item.tax_rate !== undefined && new Money(item.tax_rate).greaterThan(0) ? 'S' : undefined;
}

/**
 * The VAT an item carries in the UBL. The rate is written as sent, also for
 * O (where the checks refuse one, BR-O-05…07), so UBL built without the
 * checks shows the official validator what the client sent.
 */
export function taxTreatment(item: TaxedItem): TaxTreatment {
  const category = categoryOf(item) ?? 'S';
  const fallback = DEFAULT_EXEMPTIONS[category];
  const exempt = EXEMPT_CATEGORIES.has(category);
  return {
    category,
    rate: item.tax_rate === undefined ? null : normaliseRate(item.tax_rate),
    exemptionCode: exempt
      ? (item.tax_exemption_reason_code ?? (item.tax_exemption_reason ? undefined : fallback?.code))
      : undefined,
    exemptionReason: exempt ? (item.tax_exemption_reason ?? fallback?.reason) : undefined,
  };
}

const sum = (values: Amount[]) => values.reduce((total, value) => total.plus(value), money(0));
const groupKey = (tax: TaxTreatment) => `${tax.category}|${tax.rate ?? ''}`;

/** Allowances or charges summed; one without an amount (a received document lacking it) adds nothing. */
const sumOf = (entries: { amount?: Decimal.Value | undefined }[] | undefined) =>
  sum((entries ?? []).map((entry) => money(entry.amount ?? 0)));

/** BT-131, a line's net amount: round2(quantity × price) + charges − allowances (reference part A.16). */
export function lineNet(line: {
  quantity?: Decimal.Value | undefined;
  unit_price?: Decimal.Value | undefined;
  allowances?: { amount?: Decimal.Value | undefined }[] | undefined;
  charges?: { amount?: Decimal.Value | undefined }[] | undefined;
}): Amount {
  return round2(money(line.quantity ?? 0).times(line.unit_price ?? 0))
    .plus(sumOf(line.charges))
    .minus(sumOf(line.allowances));
}

export function calculate(document: DocumentInput): CalculatedDocument {
  const lines = document.lines.map((line): CalculatedLine => {
    const allowanceTotal = sumOf(line.allowances);
    const chargeTotal = sumOf(line.charges);
    return { input: line, tax: taxTreatment(line), allowanceTotal, chargeTotal, net: lineNet(line) };
  });
  const allowancesCharges = [
    ...(document.allowances ?? []).map((input) => ({ input, isCharge: false })),
    ...(document.charges ?? []).map((input) => ({ input, isCharge: true })),
  ].map(({ input, isCharge }): CalculatedAllowanceCharge => ({
    input,
    isCharge,
    tax: taxTreatment(input),
    amount: money(input.amount),
  }));

  const groups = new Map<string, TaxGroup>();
  const addToGroup = (tax: TaxTreatment, amount: Amount) => {
    const key = groupKey(tax);
    const group = groups.get(key) ?? { ...tax, taxable: money(0), tax: money(0) };
    group.taxable = group.taxable.plus(amount);
    group.exemptionCode ??= tax.exemptionCode;
    group.exemptionReason ??= tax.exemptionReason;
    groups.set(key, group);
  };
  for (const line of lines) addToGroup(line.tax, line.net);
  for (const entry of allowancesCharges) addToGroup(entry.tax, entry.isCharge ? entry.amount : entry.amount.negated());
  const taxGroups = [...groups.values()].map((group) => ({
    ...group,
    tax:
      group.rate === null || EXEMPT_CATEGORIES.has(group.category)
        ? money(0)
        : round2(group.taxable.times(group.rate).dividedBy(100)),
  }));

  const lineExtension = sum(lines.map((line) => line.net));
  const allowanceTotal = sum(allowancesCharges.filter((entry) => !entry.isCharge).map((entry) => entry.amount));
  const chargeTotal = sum(allowancesCharges.filter((entry) => entry.isCharge).map((entry) => entry.amount));
  const taxExclusive = lineExtension.minus(allowanceTotal).plus(chargeTotal);
  const tax = sum(taxGroups.map((group) => group.tax));
  const taxInclusive = taxExclusive.plus(tax);
  const prepaid = money(document.payment?.prepaid_amount ?? 0);
  const rounding = money(document.payment?.rounding_amount ?? 0);
  return {
    lines,
    allowancesCharges,
    taxGroups,
    // BR-CO-16: amount due = total with VAT − paid + rounding.
    totals: {
      lineExtension,
      allowanceTotal,
      chargeTotal,
      taxExclusive,
      tax,
      taxInclusive,
      prepaid,
      rounding,
      payable: taxInclusive.minus(prepaid).plus(rounding),
    },
  };
}
