import currencies from '../data/currencies.json';

/** ISO 4217 codes Peppol accepts, as data (domain/data/currencies.json) so a release update needs no code change. */
const codes = new Set<string>(currencies.codes);

export const isCurrencyCode = (code: string): boolean => codes.has(code);
