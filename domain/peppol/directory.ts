import { createHash } from 'node:crypto';

import { create } from 'xmlbuilder2';

import { PARTICIPANT_SCHEME } from './sml';
import { childNamed, childrenNamed, parseXml } from '../xml-tree';

/**
 * A Peppol Directory business card (the Directory's schema of 2018-06-21,
 * `http://www.peppol.eu/schema/pd/businesscard/20180621/`), as an SMP serves
 * it at `/businesscard/{participant id}` for the Directory to read: the
 * participant and the business entity behind it (its name, country and
 * identifiers). The Directory is for discovery; the network does not make
 * business cards mandatory, so a company can stay out of it.
 */

const BUSINESS_CARD_NAMESPACE = 'http://www.peppol.eu/schema/pd/businesscard/20180621/';

export interface BusinessCard {
  /** The participant value (`0208:0123456749`), scheme iso6523-actorid-upis. */
  participant: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Further identifiers of the entity: `scheme` is free text; the Directory's specification names `vat`, `orgnr`, `gln` and `duns`. */
  identifiers: { scheme: string; value: string }[];
  /** When it was registered on Peppol (YYYY-MM-DD). */
  registrationDate?: string;
}

export function businessCardXml(card: BusinessCard): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(BUSINESS_CARD_NAMESPACE, 'BusinessCard');
  root.ele('ParticipantIdentifier', { scheme: PARTICIPANT_SCHEME }).txt(card.participant);
  const entity = root.ele('BusinessEntity', card.registrationDate ? { registrationDate: card.registrationDate } : {});
  entity.ele('Name').txt(card.name);
  entity.ele('CountryCode').txt(card.country);
  for (const identifier of card.identifiers)
    entity.ele('Identifier', { scheme: identifier.scheme }).txt(identifier.value);
  return root.end({ prettyPrint: true });
}

/** Reads a business card as the Directory indexes it: the participant and each entity's first name, country and identifiers. */
export function readBusinessCard(xml: string): BusinessCard[] {
  const root = parseXml(xml);
  if (root.namespace !== BUSINESS_CARD_NAMESPACE || root.name !== 'BusinessCard')
    throw new Error(`not a business card (root {${root.namespace}}${root.name})`);
  const participant = childNamed(root, BUSINESS_CARD_NAMESPACE, 'ParticipantIdentifier')?.text ?? '';
  return childrenNamed(root, BUSINESS_CARD_NAMESPACE, 'BusinessEntity').map((entity) => ({
    participant,
    name: childNamed(entity, BUSINESS_CARD_NAMESPACE, 'Name')?.text ?? '',
    country: childNamed(entity, BUSINESS_CARD_NAMESPACE, 'CountryCode')?.text ?? '',
    identifiers: childrenNamed(entity, BUSINESS_CARD_NAMESPACE, 'Identifier').map((identifier) => ({
      scheme: identifier.attributes.scheme ?? '',
      value: identifier.text,
    })),
    ...(entity.attributes.registrationDate && { registrationDate: entity.attributes.registrationDate }),
  }));
}

/** The company fields a card shows. */
export interface CardholderFields {
  name: string;
  country: string;
  company_registration_id?: string | null;
  tax_id?: string | null;
}

/**
 * A company's card: its name and country, its VAT number (`vat`) and its
 * registration number (`orgnr`), registered on Peppol on `registeredAt`.
 */
export function companyBusinessCard(company: CardholderFields, participant: string, registeredAt: Date): BusinessCard {
  return {
    participant,
    name: company.name,
    country: company.country,
    identifiers: [
      ...(company.tax_id ? [{ scheme: 'vat', value: company.tax_id }] : []),
      ...(company.company_registration_id ? [{ scheme: 'orgnr', value: company.company_registration_id }] : []),
    ],
    registrationDate: registeredAt.toISOString().slice(0, 10),
  };
}

/** Tells whether the card the Directory has is the current one: the SHA-256 of the card as served. */
export const businessCardFingerprint = (card: BusinessCard) =>
  createHash('sha256').update(businessCardXml(card)).digest('hex');
