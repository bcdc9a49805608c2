import Decimal from 'decimal.js';

import table from '../data/vat-rates.json';
import { categoryOf } from './calculate';
import type { DocumentInput } from './input';
import type { DocumentWarning } from './warning';
import type { Violation } from './violation';

/**
 * Plausibility of standard-rated (S) VAT rates against the published rates
 * (domain/data/vat-rates.json, with its source and date). EN 16931 only asks
 * S for a rate above 0 (BR-S-05), so these are our own checks, with no
 * official rule id: a rate no country of the table uses at all is a typing
 * mistake (0.21 for 21, 121 for 21) and is refused naming the likely intent;
 * one that some country uses but not the seller's is allowed with a warning,
 * since the table may lag a change or the supply may be taxed elsewhere.
 */

interface CountryRates {
  standard: string;
  reduced: string[];
  regional?: string[];
}

const COUNTRIES: Record<string, CountryRates> = table.countries;

const ratesOf = (rates: CountryRates) => [rates.standard, ...rates.reduced, ...(rates.regional ?? [])].map((rate) => new Decimal(rate));

/** Every rate any country of the table uses for S, and who uses it. */
const KNOWN = new Map<string, string[]>();
for (const [country, rates] of Object.entries(COUNTRIES)) {
  for (const rate of ratesOf(rates)) KNOWN.set(rate.toString(), [...(KNOWN.get(rate.toString()) ?? []), country]);
}

const HUNDRED = new Decimal(100);
const HIGHEST = Decimal.max(...[...KNOWN.keys()].map((rate) => new Decimal(rate)));
const isKnown = (rate: Decimal) => KNOWN.has(rate.toString());

export type RateVerdict = { kind: 'usual' } | { kind: 'refused'; message: string } | { kind: 'unusual'; message: string };

/** The slips that turn a real rate into one no country uses, each with what it looks like. */
const SLIPS: { meant: (rate: Decimal) => Decimal; looksLike: (shown: string) => string }[] = [
  { meant: (rate) => rate.times(HUNDRED), looksLike: () => 'a fraction' },
  { meant: (rate) => rate.minus(1).times(HUNDRED), looksLike: (shown) => `a multiplier (net × ${shown})` },
  { meant: (rate) => rate.minus(HUNDRED), looksLike: () => 'the gross as a percentage of the net' },
];

function refusal(rate: Decimal, sellerCountry: string | undefined): string {
  const shown = rate.toString();
  for (const slip of SLIPS) {
    const meant = slip.meant(rate);
    if (meant.greaterThan(0) && isKnown(meant)) return `${shown} looks like ${slip.looksLike(shown)}: VAT rates are in percent, ${meant.toString()} means ${meant.toString()} %; send ${meant.toString()}.`;
  }
  const own = sellerCountry ? COUNTRIES[sellerCountry] : undefined;
  const hint = own ? ` The seller's country (${sellerCountry}) uses ${ratesOf(own).join(', ')}.` : '';
  const none = rate.greaterThan(HIGHEST) ? `No country uses a VAT rate above ${HIGHEST.toString()} % (${KNOWN.get(HIGHEST.toString())!.join(', ')})` : `No country uses a VAT rate of ${shown} %`;
  return `${none} for standard-rated (S) items; a rate is in percent, such as 21.${hint}`;
}

/** How a standard-rated rate above 0 compares with the published rates; the seller's country decides what is usual. */
export function judgeStandardRate(rate: Decimal, sellerCountry: string | undefined): RateVerdict {
  if (!isKnown(rate)) return { kind: 'refused', message: refusal(rate, sellerCountry) };
  const own = sellerCountry ? COUNTRIES[sellerCountry] : undefined;
  // A country the table does not cover has nothing to compare with.
  if (!own || ratesOf(own).some((known) => known.equals(rate))) return { kind: 'usual' };
  return {
    kind: 'unusual',
    message:
      `${sellerCountry} does not use a VAT rate of ${rate.toString()} % (its rates: ${ratesOf(own).join(', ')}; ${rate.toString()} % is used in ${KNOWN.get(rate.toString())!.join(', ')}). ` +
      `Check the rate; the document is sent as it is (rates as of ${table.as_of}).`,
  };
}

/** The standard-rated items of a document with a rate above 0, by JSON path; the other rates have their own rules (vat-rules.ts). */
function standardRates(document: DocumentInput): { path: string; rate: Decimal }[] {
  const items = [
    ...document.lines.map((item, index) => ({ item, path: `lines[${index}]` })),
    ...(document.allowances ?? []).map((item, index) => ({ item, path: `allowances[${index}]` })),
    ...(document.charges ?? []).map((item, index) => ({ item, path: `charges[${index}]` })),
  ];
  return items
    .filter(({ item }) => categoryOf(item) === 'S' && item.tax_rate !== undefined && new Decimal(item.tax_rate).greaterThan(0))
    .map(({ item, path }) => ({ path: `${path}.tax_rate`, rate: new Decimal(item.tax_rate!) }));
}

/** Refuses every standard rate no country uses (no official rule says so: `rule` is null). */
export function checkStandardRates(document: DocumentInput, out: Violation[]): void {
  for (const { path, rate } of standardRates(document)) {
    const verdict = judgeStandardRate(rate, document.from.address?.country);
    if (verdict.kind === 'refused') out.push({ path, rule: null, message: verdict.message });
  }
}

/** One `vat_rate_unusual` warning per distinct rate the seller's country does not use, at its first item. */
export function unusualRateWarnings(document: DocumentInput): DocumentWarning[] {
  const warned = new Set<string>();
  const warnings: DocumentWarning[] = [];
  for (const { path, rate } of standardRates(document)) {
    const verdict = judgeStandardRate(rate, document.from.address?.country);
    if (verdict.kind !== 'unusual' || warned.has(rate.toString())) continue;
    warned.add(rate.toString());
    warnings.push({ code: 'vat_rate_unusual', path, message: verdict.message });
  }
  return warnings;
}
