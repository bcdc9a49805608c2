import { createHash } from 'node:crypto';

import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

import { BIS_BILLING_PROCESS, type BillingDocument, type PeppolService } from './capabilities';
import { PARTICIPANT_SCHEME } from './sml';
import type { Identifier } from './smp';
import { CII_NS } from '../cii/syntax';
import { childNamed, parseXml, XmlError, type XmlElement } from '../xml-tree';

/**
 * What an access point needs to route a UBL document on Peppol, read from the
 * document itself (reference parts B.4 and E): sender and receiver are the
 * seller's and buyer's EndpointID, the document type follows from the root
 * element and CustomizationID, the process is the ProfileID, and C1's
 * country is the seller's. And the SBDH envelope (Peppol Business Message
 * Envelope 2.0) around it, with the UBL carried byte for byte.
 */

const SBDH_NAMESPACE = 'http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const DOCUMENT_TYPE_SCHEME = 'busdox-docid-qns';
const UBL_VERSION = '2.1';

const ROOTS: Record<string, BillingDocument> = { Invoice: 'invoice', CreditNote: 'credit_note' };

/** One AS4 message id per sent document, the same for every attempt: a receiver that got an earlier attempt keeps one copy. */
export const documentAs4MessageId = (documentId: string) => `${documentId}@einvoice`;

export interface PeppolRouting {
  kind: BillingDocument;
  /** The UBL root's namespace and local name, e.g. `urn:…:Invoice-2` and `Invoice`. */
  root: { namespace: string; name: string };
  documentType: Identifier;
  process: Identifier;
  /** Participant values (`scheme:value`, scheme iso6523-actorid-upis). */
  sender: string;
  receiver: string;
  countryC1: string;
}

/** What an envelope needs of any Peppol business message (an ApplicationResponse has no `kind`). */
export type EnvelopeRouting = Omit<PeppolRouting, 'kind'>;

/**
 * Message Level Status scopes of the SBDH (Peppol Business Message Envelope
 * 2.0.2 and MLS 1.0; receiving.md 4.3): where the receiving access point
 * sends its MLS (`MLS_TO`, a service provider participant `0242:<SPID>`) and
 * when (`MLS_TYPE`: `FAILURE_ONLY` is the network's default when absent,
 * `ALWAYS_SEND` asks for a positive status too). An MLS itself asks for none.
 */
export type MlsType = 'ALWAYS_SEND' | 'FAILURE_ONLY';
export interface MlsRequest {
  type: MlsType;
  /** The service provider to send it to, `0242:<SPID>`; absent: the sending access point's. */
  to?: string;
}

/** A UBL document that cannot be routed, with why. */
export class RoutingError extends Error {
  override name = 'RoutingError';
}

function path(element: XmlElement, steps: [string, string][]): XmlElement | undefined {
  let current: XmlElement | undefined = element;
  for (const [namespace, name] of steps) current = current && childNamed(current, namespace, name);
  return current;
}

/** A party's electronic address (`schemeID:value`) at `steps`, which `described` names when it is missing. */
function participantAt(root: XmlElement, steps: [string, string][], who: string, described: string): string {
  const endpoint = path(root, steps);
  const scheme = endpoint?.attributes.schemeID;
  if (!endpoint?.text || !scheme)
    throw new RoutingError(`the ${who} has no electronic address (${described} with @schemeID)`);
  return `${scheme}:${endpoint.text}`;
}

const endpointOf = (root: XmlElement, partyRole: string, who: string): string =>
  participantAt(
    root,
    [
      [CAC, partyRole],
      [CAC, 'Party'],
      [CBC, 'EndpointID'],
    ],
    who,
    `cac:${partyRole}/cac:Party/cbc:EndpointID`,
  );

/** The document's root element; XML that is not well-formed cannot be routed. */
function parsedForRouting(ubl: string): XmlElement {
  try {
    return parseXml(ubl);
  } catch (err) {
    if (err instanceof XmlError) throw new RoutingError(`the UBL is not well-formed XML: ${err.message}`);
    throw err;
  }
}

/** The Peppol BIS Billing CII syntax's version in its document type identifier. */
const CII_VERSION = 'D16B';

/**
 * A CII CrossIndustryInvoice's routing, read from the document as a UBL one's is: sender and receiver their
 * electronic addresses (BT-34, BT-49), C1's country the seller's, the document type its guideline's (BIS
 * Billing's CII one), the kind its type code's (381 a credit note).
 */
function ciiRoutingOf(root: XmlElement): PeppolRouting {
  if (root.name !== 'CrossIndustryInvoice')
    throw new RoutingError(
      `the root element is {${root.namespace}}${root.name}, not a UN/CEFACT CII CrossIndustryInvoice`,
    );
  const { rsm, ram } = CII_NS;
  const agreement: [string, string][] = [
    [rsm, 'SupplyChainTradeTransaction'],
    [ram, 'ApplicableHeaderTradeAgreement'],
  ];
  const address = (who: string, party: 'SellerTradeParty' | 'BuyerTradeParty') =>
    participantAt(
      root,
      [...agreement, [ram, party], [ram, 'URIUniversalCommunication'], [ram, 'URIID']],
      who,
      `ram:${party}/ram:URIUniversalCommunication/ram:URIID`,
    );
  const context = childNamed(root, rsm, 'ExchangedDocumentContext');
  const contextId = (name: string) =>
    (
      context &&
      path(context, [
        [ram, name],
        [ram, 'ID'],
      ])
    )?.text;
  const customization = contextId('GuidelineSpecifiedDocumentContextParameter');
  const profile = contextId('BusinessProcessSpecifiedDocumentContextParameter');
  if (!customization)
    throw new RoutingError('the document has no ram:GuidelineSpecifiedDocumentContextParameter/ram:ID');
  if (!profile)
    throw new RoutingError('the document has no ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID');
  const countryC1 = path(root, [
    ...agreement,
    [ram, 'SellerTradeParty'],
    [ram, 'PostalTradeAddress'],
    [ram, 'CountryID'],
  ])?.text;
  if (!countryC1) throw new RoutingError("the seller's postal address has no country code");
  const sender = address('seller', 'SellerTradeParty');
  const receiver = address('buyer', 'BuyerTradeParty');
  return {
    kind:
      path(root, [
        [rsm, 'ExchangedDocument'],
        [ram, 'TypeCode'],
      ])?.text === '381'
        ? 'credit_note'
        : 'invoice',
    root: { namespace: root.namespace, name: root.name },
    documentType: {
      scheme: DOCUMENT_TYPE_SCHEME,
      value: `${root.namespace}::${root.name}##${customization}::${CII_VERSION}`,
    },
    process: { scheme: BIS_BILLING_PROCESS.scheme, value: profile },
    sender,
    receiver,
    countryC1,
  };
}

/** The routing of a billing document, UBL or CII, from the document itself. */
export function routingOf(ubl: string): PeppolRouting {
  const root = parsedForRouting(ubl);
  if (root.namespace === CII_NS.rsm) return ciiRoutingOf(root);
  const kind = ROOTS[root.name];
  if (!kind || root.namespace !== `urn:oasis:names:specification:ubl:schema:xsd:${root.name}-2`) {
    throw new RoutingError(`the document is not a UBL Invoice or CreditNote (root {${root.namespace}}${root.name})`);
  }
  const customization = childNamed(root, CBC, 'CustomizationID')?.text;
  const profile = childNamed(root, CBC, 'ProfileID')?.text;
  if (!customization) throw new RoutingError('the document has no cbc:CustomizationID');
  if (!profile) throw new RoutingError('the document has no cbc:ProfileID');
  const countryC1 = path(root, [
    [CAC, 'AccountingSupplierParty'],
    [CAC, 'Party'],
    [CAC, 'PostalAddress'],
    [CAC, 'Country'],
    [CBC, 'IdentificationCode'],
  ])?.text;
  if (!countryC1) throw new RoutingError("the seller's postal address has no country code");
  return {
    kind,
    root: { namespace: root.namespace, name: root.name },
    documentType: {
      scheme: DOCUMENT_TYPE_SCHEME,
      value: `${root.namespace}::${root.name}##${customization}::${UBL_VERSION}`,
    },
    process: { scheme: BIS_BILLING_PROCESS.scheme, value: profile },
    sender: endpointOf(root, 'AccountingSupplierParty', 'seller'),
    receiver: endpointOf(root, 'AccountingCustomerParty', 'buyer'),
    countryC1,
  };
}

const APPLICATION_RESPONSE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';

/** A party of an ApplicationResponse by its EndpointID (`schemeID:value`). */
function responsePartyOf(root: XmlElement, role: 'SenderParty' | 'ReceiverParty'): string {
  const endpoint = path(root, [
    [CAC, role],
    [CBC, 'EndpointID'],
  ]);
  const scheme = endpoint?.attributes.schemeID;
  if (!endpoint?.text || !scheme)
    throw new RoutingError(`the ApplicationResponse has no cac:${role}/cbc:EndpointID with @schemeID`);
  return `${scheme}:${endpoint.text}`;
}

/**
 * The routing of a reply we write, an Invoice Response or a Message Level
 * Status (both UBL ApplicationResponse): sender and receiver are its
 * SenderParty and ReceiverParty, document type and process the service's,
 * and C1's country the one given (the ApplicationResponse names none).
 */
export function replyRouting(ubl: string, service: PeppolService, countryC1: string): EnvelopeRouting {
  const root = parsedForRouting(ubl);
  if (root.namespace !== APPLICATION_RESPONSE_NAMESPACE || root.name !== 'ApplicationResponse') {
    throw new RoutingError(`the document is not a UBL ApplicationResponse (root {${root.namespace}}${root.name})`);
  }
  return {
    root: { namespace: root.namespace, name: root.name },
    documentType: service.documentType,
    process: service.process,
    sender: responsePartyOf(root, 'SenderParty'),
    receiver: responsePartyOf(root, 'ReceiverParty'),
    countryC1,
  };
}

/** The XML declaration and the line break after it: what an SBD cannot carry inside. */
const XML_DECLARATION = /^\uFEFF?<\?xml[^?]*\?>\r?\n?/;

/**
 * The bytes of the UBL that travel inside the envelope: everything after its XML declaration.
 * @internal
 */
export const envelopedPayload = (ubl: string): string => ubl.replace(XML_DECLARATION, '');

/**
 * A name-based (version 5) UUID: the same document always gets the same
 * envelope id, so every retry sends the same envelope.
 */
export function nameBasedUuid(name: string): string {
  const bytes = createHash('sha1').update(`einvoice:sbdh:${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The Standard Business Document: the header written with xmlbuilder2, the
 * UBL appended as it is stored (not parsed and written again), so the
 * receiver gets exactly the document GET /v1/documents/{id}/ubl returns.
 * (The header repeats the default namespace declaration: harmless, and it
 * keeps the header a self-contained element.) Any payload with its routing
 * goes the same way: the Peppol reports too (services/reporting/).
 */
/** The syntax version of the payload (UBL 2.1, CII D16B, a report's 1.0): the end of its document type identifier, as the Peppol Envelope specification wants. */
const typeVersionOf = (documentType: string) => documentType.slice(documentType.lastIndexOf('::') + 2);

export function standardBusinessDocument(
  ubl: string,
  routing: EnvelopeRouting,
  envelope: { instanceId: string; createdAt: Date; mls?: MlsRequest },
): string {
  const root = create().ele(SBDH_NAMESPACE, 'StandardBusinessDocumentHeader');
  textElement(root, 'HeaderVersion', '1.0');
  textElement(root.ele('Sender'), 'Identifier', routing.sender, { Authority: PARTICIPANT_SCHEME });
  textElement(root.ele('Receiver'), 'Identifier', routing.receiver, { Authority: PARTICIPANT_SCHEME });
  const identification = root.ele('DocumentIdentification');
  textElement(identification, 'Standard', routing.root.namespace);
  textElement(identification, 'TypeVersion', typeVersionOf(routing.documentType.value));
  textElement(identification, 'InstanceIdentifier', envelope.instanceId);
  textElement(identification, 'Type', routing.root.name);
  textElement(identification, 'CreationDateAndTime', envelope.createdAt.toISOString());
  const scopes = root.ele('BusinessScope');
  scope(scopes, 'DOCUMENTID', routing.documentType.value, routing.documentType.scheme);
  scope(scopes, 'PROCESSID', routing.process.value, routing.process.scheme);
  scope(scopes, 'COUNTRY_C1', routing.countryC1);
  // Scopes of the MLS specification (section on the SBDH), only when a status is asked for.
  if (envelope.mls?.to) scope(scopes, 'MLS_TO', envelope.mls.to, PARTICIPANT_SCHEME);
  if (envelope.mls) scope(scopes, 'MLS_TYPE', envelope.mls.type);
  const header = root.end({ headless: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<StandardBusinessDocument xmlns="${SBDH_NAMESPACE}">${header}${envelopedPayload(ubl)}</StandardBusinessDocument>\n`;
}

/** An element holding text (and attributes), added to `parent`. */
function textElement(parent: XMLBuilder, name: string, text: string, attributes: Record<string, string> = {}): void {
  parent.ele(name, attributes).txt(text);
}

/** One scope of the header's BusinessScope: its type, its value, and the scheme of that value where it has one. */
function scope(scopes: XMLBuilder, type: string, instance: string, identifier?: string): void {
  const element = scopes.ele('Scope');
  textElement(element, 'Type', type);
  textElement(element, 'InstanceIdentifier', instance);
  if (identifier !== undefined) textElement(element, 'Identifier', identifier);
}
