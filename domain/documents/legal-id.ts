import legalIdSchemes from '../data/legal-id-schemes.json';

/**
 * The ISO 6523 scheme (schemeID) of a party's legal registration identifier
 * (BT-30/BT-47). The API takes the identifier alone, so the scheme follows
 * from the party's country and the identifier's format, per the national
 * registers in domain/data/legal-id-schemes.json; none where no register of
 * that country has that format (the identifier is then written without one).
 */

const schemesByCountry = new Map<string, { scheme: string; pattern: RegExp }[]>(
  Object.entries(legalIdSchemes.schemes).map(([country, schemes]) => [
    country,
    schemes.map(({ scheme, pattern }) => ({ scheme, pattern: new RegExp(pattern) })),
  ]),
);

export function legalIdScheme(country: string | undefined, id: string | undefined): string | undefined {
  if (!country || !id) return undefined;
  return schemesByCountry.get(country)?.find(({ pattern }) => pattern.test(id))?.scheme;
}
