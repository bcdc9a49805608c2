import { create } from 'xmlbuilder2';

import { childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from '../../domain/xml-tree';

/**
 * The messages of the SML's management interface as BDMSL speaks it (SOAP
 * 1.1, document/literal; the ManageServiceMetadataService-1.0 and
 * ManageBusinessIdentifierService-1.0 WSDLs of peppol-commons'
 * peppol-sml-client, types in peppol-sml-types-v1.xsd): requests read into
 * plain values, answers and faults written. Pure, so it is tested alone.
 *
 * A fault is written the way BDMSL answers (seen in phax/peppol-commons issue
 * 28): faultcode soap:Server, faultstring `[ERR-nnn] message`, and the typed
 * detail element of the locator namespace with the same FaultMessage; HTTP
 * 500, as SOAP 1.1 requires and DomiSML answers since 5.0 (issue 48).
 */

/** @internal */
export const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
/** @internal */
export const LOCATOR_NS = 'http://busdox.org/serviceMetadata/locator/1.0/';
/** @internal */
export const IDS_NS = 'http://busdox.org/transport/identifiers/1.0/';

export type SmlService = 'manageservicemetadata' | 'manageparticipantidentifier';

interface SmpAddresses {
  logicalAddress: string;
  physicalAddress: string;
}

export type SmlRequest =
  | ({ operation: 'createSmp' | 'updateSmp'; smpId: string } & SmpAddresses)
  | { operation: 'readSmp' | 'deleteSmp'; smpId: string }
  | {
      operation: 'createParticipant' | 'deleteParticipant';
      smpId: string;
      participant: { scheme: string; value: string };
    }
  | {
      operation: 'prepareMigration' | 'migrate';
      smpId: string;
      participant: { scheme: string; value: string };
      migrationKey: string;
    }
  | { operation: 'listParticipants'; smpId: string; nextPageId: string };

export type SmlFaultKind = 'BadRequestFault' | 'NotFoundFault' | 'UnauthorizedFault' | 'InternalErrorFault';

/** Error codes in fault messages: 100 (not found) and 106 (bad request) as BDMSL's published answers show them; 101 and 105 are the stand-in's. */
const ERROR_CODES: Record<SmlFaultKind, number> = {
  NotFoundFault: 100,
  UnauthorizedFault: 101,
  InternalErrorFault: 105,
  BadRequestFault: 106,
};

export class SmlFault extends Error {
  override name = 'SmlFault';
  constructor(
    readonly kind: SmlFaultKind,
    message: string,
  ) {
    super(`[ERR-${ERROR_CODES[kind]}] ${message}`);
  }
}

/** Which body element is which operation, per service (what decides, not the SOAPAction header). */
const OPERATIONS: Record<SmlService, Record<string, SmlRequest['operation']>> = {
  manageservicemetadata: {
    CreateServiceMetadataPublisherService: 'createSmp',
    ReadServiceMetadataPublisherService: 'readSmp',
    UpdateServiceMetadataPublisherService: 'updateSmp',
    ServiceMetadataPublisherID: 'deleteSmp',
  },
  manageparticipantidentifier: {
    CreateParticipantIdentifier: 'createParticipant',
    DeleteParticipantIdentifier: 'deleteParticipant',
    PageRequest: 'listParticipants',
    PrepareMigrationRecord: 'prepareMigration',
    CompleteMigrationRecord: 'migrate',
  },
};

const badRequest = (message: string) => new SmlFault('BadRequestFault', message);

function text(parent: XmlElement, name: string): string {
  const element = childNamed(parent, LOCATOR_NS, name);
  if (!element?.text) throw badRequest(`${name} is missing or empty`);
  return element.text;
}

function participantOf(message: XmlElement): { scheme: string; value: string } {
  const participants = childrenNamed(message, IDS_NS, 'ParticipantIdentifier');
  if (participants.length !== 1) throw badRequest('exactly one ParticipantIdentifier is expected');
  const scheme = participants[0]!.attributes.scheme ?? '';
  if (!scheme) throw badRequest('Participant Identifier Scheme cannot be null or empty');
  return { scheme, value: participants[0]!.text };
}

/** Reads a request to one of the two services; a message that is not one of its operations is a BadRequestFault. */
export function parseSmlRequest(service: SmlService, xml: string): SmlRequest {
  let envelope: XmlElement;
  try {
    envelope = parseXml(xml);
  } catch (err) {
    if (err instanceof XmlError) throw badRequest(`the request is not well-formed XML: ${err.message}`);
    throw err;
  }
  if (envelope.namespace !== SOAP_NS || envelope.name !== 'Envelope')
    throw badRequest('the request is not a SOAP 1.1 envelope');
  const body = childNamed(envelope, SOAP_NS, 'Body');
  const [message, ...more] = body?.children ?? [];
  if (!message || more.length > 0) throw badRequest('the SOAP Body must hold exactly one element');
  const operation = message.namespace === LOCATOR_NS ? OPERATIONS[service][message.name] : undefined;
  if (!operation)
    throw badRequest(`{${message.namespace}}${message.name} is not an operation of /${service} this SML implements`);

  switch (operation) {
    case 'createSmp':
    case 'updateSmp': {
      const endpoint = childNamed(message, LOCATOR_NS, 'PublisherEndpoint');
      if (!endpoint) throw badRequest('PublisherEndpoint is missing');
      return {
        operation,
        smpId: text(message, 'ServiceMetadataPublisherID'),
        logicalAddress: text(endpoint, 'LogicalAddress'),
        physicalAddress: text(endpoint, 'PhysicalAddress'),
      };
    }
    case 'readSmp':
      return { operation, smpId: text(message, 'ServiceMetadataPublisherID') };
    case 'deleteSmp':
      if (!message.text) throw badRequest('ServiceMetadataPublisherID is empty');
      return { operation, smpId: message.text };
    case 'createParticipant':
    case 'deleteParticipant':
      return { operation, smpId: text(message, 'ServiceMetadataPublisherID'), participant: participantOf(message) };
    case 'prepareMigration':
    case 'migrate':
      return {
        operation,
        smpId: text(message, 'ServiceMetadataPublisherID'),
        participant: participantOf(message),
        migrationKey: text(message, 'MigrationKey'),
      };
    case 'listParticipants':
      return {
        operation,
        smpId: text(message, 'ServiceMetadataPublisherID'),
        nextPageId: childNamed(message, LOCATOR_NS, 'NextPageIdentifier')?.text ?? '',
      };
  }
}

export type SmlAnswer =
  | { kind: 'empty' }
  | { kind: 'smp'; smpId: string; addresses: SmpAddresses }
  | { kind: 'page'; smpId: string; participantValues: string[]; scheme: string; nextPageId?: string };

/** The SOAP envelope of a successful answer; `empty` for the operations whose output message has no part. */
export function answerEnvelope(answer: SmlAnswer): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SOAP_NS, 'S:Envelope');
  const body = root.ele(SOAP_NS, 'S:Body');
  if (answer.kind === 'smp') {
    const record = body.ele(LOCATOR_NS, 'ServiceMetadataPublisherService');
    const endpoint = record.ele(LOCATOR_NS, 'PublisherEndpoint');
    endpoint.ele(LOCATOR_NS, 'LogicalAddress').txt(answer.addresses.logicalAddress);
    endpoint.ele(LOCATOR_NS, 'PhysicalAddress').txt(answer.addresses.physicalAddress);
    record.ele(LOCATOR_NS, 'ServiceMetadataPublisherID').txt(answer.smpId);
  } else if (answer.kind === 'page') {
    const page = body.ele(LOCATOR_NS, 'ParticipantIdentifierPage');
    for (const value of answer.participantValues)
      page.ele(IDS_NS, 'ids:ParticipantIdentifier', { scheme: answer.scheme }).txt(value);
    page.ele(LOCATOR_NS, 'ServiceMetadataPublisherID').txt(answer.smpId);
    if (answer.nextPageId) page.ele(LOCATOR_NS, 'NextPageIdentifier').txt(answer.nextPageId);
  }
  return root.end();
}

export function faultEnvelope(fault: SmlFault): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SOAP_NS, 'soap:Envelope');
  const soapFault = root.ele(SOAP_NS, 'soap:Body').ele(SOAP_NS, 'soap:Fault');
  // SOAP 1.1 fault parts are unqualified.
  soapFault.ele('faultcode').txt('soap:Server');
  soapFault.ele('faultstring').txt(fault.message);
  soapFault.ele('detail').ele(LOCATOR_NS, fault.kind).ele(LOCATOR_NS, 'FaultMessage').txt(fault.message);
  return root.end();
}
