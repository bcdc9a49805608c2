import { legalIdScheme } from '../documents/legal-id';
import type { XmlElement } from '../xml-tree';
import type { DocumentJson, Party } from './received';
import { nonEmpty, stated, type Context, type JsonPath } from './reading';

/** Seller, buyer and deliver-to of a received UBL document (read.ts). */

/** Street, city, postal code and country of a PostalAddress or deliver-to Address. */
function readAddress(c: Context, address: XmlElement | undefined, at: JsonPath) {
  const { r } = c;
  return {
    street: r.field(r.one(address, 'cbc:StreetName'), [...at, 'street']),
    city: r.field(r.one(address, 'cbc:CityName'), [...at, 'city']),
    postal_code: r.field(r.one(address, 'cbc:PostalZone'), [...at, 'postal_code']),
    country: r.text(r.one(address, 'cac:Country/cbc:IdentificationCode')),
  };
}

export function readParty(c: Context, party: XmlElement | undefined, at: 'from' | 'to'): Party {
  const { r } = c;
  const endpoint = r.one(party, 'cbc:EndpointID');
  const scheme = r.attribute(endpoint, 'schemeID');
  const endpointId = r.text(endpoint);
  if (endpoint && endpointId && !scheme) r.remark(endpoint, 'no schemeID, so no Peppol id');
  if (endpoint && scheme && endpointId) r.remember([at, 'peppol_id'], endpoint);

  // The JSON view has one name, written as both; the registration name is the legal one (BT-27/BT-44).
  const legal = r.one(party, 'cac:PartyLegalEntity');
  const registrationName = r.one(legal, 'cbc:RegistrationName');
  const tradingName = r.one(party, 'cac:PartyName/cbc:Name');
  if (registrationName && tradingName?.text === registrationName.text) r.understood(tradingName);

  const postal = r.one(party, 'cac:PostalAddress');
  const address = readAddress(c, postal, [at, 'address']);
  if (postal && !address.country) r.remark(postal, 'an address without a country; the JSON view needs one for an address');

  const vat = r.all(party, 'cac:PartyTaxScheme').find((scheme) => r.one(scheme, 'cac:TaxScheme/cbc:ID')?.text === c.taxScheme);
  r.understood(r.one(vat, 'cac:TaxScheme/cbc:ID'));
  const registration = r.one(legal, 'cbc:CompanyID');
  const registrationId = r.field(registration, [at, 'company_registration_id']);
  // The JSON view takes the id alone; its scheme follows from the country (legal-id.ts). Another scheme is named.
  if (registration?.attributes.schemeID !== undefined && registration.attributes.schemeID === legalIdScheme(address.country, registrationId)) {
    r.attribute(registration, 'schemeID');
  }
  const contact = r.one(party, 'cac:Contact');
  // The first identification that is no SEPA creditor id (that one is BT-90, read with the payment); others are named.
  const identifier = r.all(party, 'cac:PartyIdentification').map((identification) => r.one(identification, 'cbc:ID')).find((id) => id?.attributes.schemeID !== 'SEPA');
  const identifierScheme = r.attribute(identifier, 'schemeID');
  if (identifierScheme !== undefined) r.remember([at, 'identifier_scheme'], identifier!);
  return stated({
    name: r.field(registrationName ?? tradingName, [at, 'name']),
    identifier: r.field(identifier, [at, 'identifier']),
    identifier_scheme: identifierScheme,
    tax_id: r.field(r.one(vat, 'cbc:CompanyID'), [at, 'tax_id']),
    company_registration_id: registrationId,
    peppol_id: scheme && endpointId ? `${scheme}:${endpointId}` : undefined,
    contact_name: r.field(r.one(contact, 'cbc:Name'), [at, 'contact_name']),
    phone: r.field(r.one(contact, 'cbc:Telephone'), [at, 'phone']),
    email: r.field(r.one(contact, 'cbc:ElectronicMail'), [at, 'email']),
    address: address.country ? stated({ ...address, country: address.country }) : undefined,
  });
}

export function readDelivery(c: Context): DocumentJson['delivery'] {
  const { r } = c;
  const delivery = r.one(r.root, 'cac:Delivery');
  if (!delivery) return undefined;
  const address = r.one(delivery, 'cac:DeliveryLocation/cac:Address');
  const country = r.one(address, 'cac:Country/cbc:IdentificationCode');
  return nonEmpty({
    date: r.field(r.one(delivery, 'cbc:ActualDeliveryDate'), ['delivery', 'date']),
    ...readAddress(c, address, ['delivery']),
    country: r.field(country, ['delivery', 'country']),
  });
}
