import Decimal from 'decimal.js';

/**
 * Credits are counted in ten-thousandths of a euro, as integers: exact, and a
 * number the database can add to atomically. Amounts come and go as decimal
 * strings of euros ("12.30").
 */
export const UNITS_PER_EUR = 10_000;
const MAX_EUROS = new Decimal('1000000000');

/** Euros to units; an amount with more than 4 decimals, negative, or implausibly large is refused (RangeError). */
export function eurosToUnits(euros: string): number {
  let amount: Decimal;
  try {
    amount = new Decimal(euros.trim());
  } catch {
    throw new RangeError(`${euros} is not an amount of euros such as 25.00`);
  }
  if (!amount.isFinite() || amount.isNegative() || amount.greaterThan(MAX_EUROS))
    throw new RangeError(`${euros} is not an amount between 0 and ${MAX_EUROS.toString()} euros`);
  const units = amount.times(UNITS_PER_EUR);
  if (!units.isInteger()) throw new RangeError(`${euros} has more than 4 decimals`);
  return units.toNumber();
}

/** Units to euros, with at least 2 decimals and at most 4: "12.30", "0.0850". */
export function unitsToEuros(units: number): string {
  const euros = new Decimal(units).dividedBy(UNITS_PER_EUR);
  return euros.decimalPlaces() <= 2 ? euros.toFixed(2) : euros.toFixed(4);
}

/** Whether going from `before` to `after` crosses below `threshold` (the one moment `credits.low` is raised). */
export const crossesBelow = (before: number, after: number, threshold: number): boolean =>
  before >= threshold && after < threshold;
