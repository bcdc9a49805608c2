import Decimal from 'decimal.js';

import table from '../data/vat-rates.json';
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

/** Each country's rates in their shortest form ("25.5", "6"), as the table lists them. */
const COUNTRIES = new Map(
  Object.entries(table.countries as Record<string, CountryRates>).map(([country, rates]) => [
    country,
    [rates.standard, ...rates.reduced, ...(rates.regional ?? [])].map((rate) => new Decimal(rate).toString()),
  ]),
);

/** Every rate any country of the table uses for S, and who uses it. */
const KNOWN = new Map<string, string[]>();
for (const [country, rates] of COUNTRIES) {
  for (const rate of rates) KNOWN.set(rate, [...(KNOWN.get(rate) ?? []), country]);
}

const HUNDRED = new Decimal(100);
const HIGHEST = Decimal.max(...KNOWN.keys());
const isKnown = (rate: Decimal) => KNOWN.has(rate.toString());

type RateVerdict = { kind: 'usual' } | { kind: 'refused'; message: string } | { kind: 'unusual'; message: string };

/** The slips that turn a real rate into one no country uses, each with what it looks like. */
const SLIPS: { meant: (rate: Decimal) => Decimal; looksLike: (written: string) => string }[] = [
  { meant: (rate) => rate.times(HUNDRED), looksLike: () => 'a fraction' },
  { meant: (rate) => rate.minus(1).times(HUNDRED), looksLike: (written) => `a multiplier (net × ${written})` },
  { meant: (rate) => rate.minus(HUNDRED), looksLike: () => 'the gross as a percentage of the net' },
];

function refusal(rate: Decimal, sellerCountry: string | undefined): string {
  const written = rate.toString();
  for (const slip of SLIPS) {
    const meant = slip.meant(rate);
    if (meant.greaterThan(0) && isKnown(meant))
      return `${written} looks like ${slip.looksLike(written)}: VAT rates are in percent, ${meant.toString()} means ${meant.toString()} %; send ${meant.toString()}.`;
  }
  const own = sellerCountry ? COUNTRIES.get(sellerCountry) : undefined;
  const hint = own ? ` The seller's country (${sellerCountry}) uses ${own.join(', ')}.` : '';
  const none = rate.greaterThan(HIGHEST)
    ? `No country uses a VAT rate above ${HIGHEST.toString()} % (${KNOWN.get(HIGHEST.toString())!.join(', ')})`
    : `No country uses a VAT rate of ${written} %`;
  return `${none} for standard-rated (S) items; a rate is in percent, such as 21.${hint}`;
}

/**
 * How a standard-rated rate above 0 compares with the published rates; the seller's country decides what is usual.
 * @internal
 */
export function judgeStandardRate(rate: Decimal, sellerCountry: string | undefined): RateVerdict {
  if (!isKnown(rate)) return { kind: 'refused', message: refusal(rate, sellerCountry) };
  const own = sellerCountry ? COUNTRIES.get(sellerCountry) : undefined;
  // A country the table does not cover has nothing to compare with.
  if (!own || own.includes(rate.toString())) return { kind: 'usual' };
  return {
    kind: 'unusual',
    message:
      `${sellerCountry} does not use a VAT rate of ${rate.toString()} % (its rates: ${own.join(', ')}; ${rate.toString()} % is used in ${KNOWN.get(rate.toString())!.join(', ')}). ` +
      `Check the rate; the document is sent as it is (rates as of ${table.as_of}).`,
  };
}

/**
 * The standard-rated items of a document with a rate above 0, in document order, each with its rate's verdict;
 * the other rates have their own rules (vat-rules.ts). A rate is parsed and judged once however many items
 * carry it, so a document of a thousand lines costs little.
 */
function judgedRates(document: DocumentInput): { path: string; rate: string; verdict: RateVerdict }[] {
  const items = [
    ...document.lines.map((item, index) => ({ item, path: `lines[${index}]` })),
    ...(document.allowances ?? []).map((item, index) => ({ item, path: `allowances[${index}]` })),
    ...(document.charges ?? []).map((item, index) => ({ item, path: `charges[${index}]` })),
  ];
  const verdicts = new Map<string, { rate: string; verdict: RateVerdict } | null>();
  const rateVerdicts = [];
  for (const { item, path } of items) {
    // Without a category, a rate above 0 is S (calculate.ts, categoryOf).
    if (item.tax_rate === undefined || (item.tax_category !== undefined && item.tax_category !== 'S')) continue;
    if (!verdicts.has(item.tax_rate)) {
      const rate = new Decimal(item.tax_rate);
      verdicts.set(
        item.tax_rate,
        rate.greaterThan(0)
          ? { rate: rate.toString(), verdict: judgeStandardRate(rate, document.from.address?.country) }
          : null,
      );
    }
    const entry = verdicts.get(item.tax_rate);
    if (entry) rateVerdicts.push({ path: `${path}.tax_rate`, ...entry });
  }
  return rateVerdicts;
}

/** Refuses every standard rate no country uses (no official rule says so: `rule` is null). */
export function checkStandardRates(document: DocumentInput, out: Violation[]): void {
  for (const { path, verdict } of judgedRates(document)) {
    if (verdict.kind === 'refused') out.push({ path, rule: null, message: verdict.message });
  }
}

/** One `vat_rate_unusual` warning per distinct rate the seller's country does not use, at its first item. */
export function unusualRateWarnings(document: DocumentInput): DocumentWarning[] {
  const warned = new Set<string>();
  const warnings: DocumentWarning[] = [];
  for (const { path, rate, verdict } of judgedRates(document)) {
    if (verdict.kind !== 'unusual' || warned.has(rate)) continue;
    warned.add(rate);
    warnings.push({ code: 'vat_rate_unusual', path, message: verdict.message });
  }
  return warnings;
}
