import peppolCountries from './data/peppol-countries.json';

/** Countries with active Peppol use, as data (domain/data/peppol-countries.json) so it changes without code. */
const active = new Set<string>(peppolCountries.countries);

export function isPeppolActiveCountry(code: string): boolean {
  return active.has(code);
}

export const peppolActiveCountries: readonly string[] = peppolCountries.countries;
