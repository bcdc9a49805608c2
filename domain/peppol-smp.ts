import { childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from './xml-tree';

/**
 * The SMP step of Peppol participant discovery (reference part C.7): the REST
 * paths of a Peppol SMP 1.x and what its ServiceGroup and
 * SignedServiceMetadata answers say. Signatures are not verified here.
 */

const SMP = 'http://busdox.org/serviceMetadata/publishing/1.0/';
const IDS = 'http://busdox.org/transport/identifiers/1.0/';
const WSA = 'http://www.w3.org/2005/08/addressing';

/** A Peppol identifier: participant, document type or process. */
export interface Identifier {
  scheme: string;
  value: string;
}

/** `scheme::value`, the full form used in SMP paths. */
export const fullIdentifier = (id: Identifier) => `${id.scheme}::${id.value}`;

/** Each full identifier is one path segment, percent-encoded (`:` → %3A, `#` → %23). */
export const serviceGroupUrl = (smpUrl: string, participant: Identifier) => `${smpUrl}/${encodeURIComponent(fullIdentifier(participant))}`;

export const serviceMetadataUrl = (smpUrl: string, participant: Identifier, documentType: Identifier) =>
  `${serviceGroupUrl(smpUrl, participant)}/services/${encodeURIComponent(fullIdentifier(documentType))}`;

export interface ServiceGroup {
  participant: Identifier;
  /** The document types the SMP lists, read from each ServiceMetadataReference's path. */
  documentTypes: Identifier[];
}

export interface Endpoint {
  transportProfile: string;
  address: string;
  /** Base64 DER of the receiving access point's certificate, as published. */
  certificate: string;
  /** `xs:dateTime` text as published (a time zone may be missing). */
  activation?: string;
  expiration?: string;
}

export interface Process {
  process: Identifier;
  endpoints: Endpoint[];
}

export type ServiceMetadata =
  | { kind: 'metadata'; participant: Identifier; documentType: Identifier; processes: Process[] }
  /** The SMP points elsewhere for this document type (C.7). */
  | { kind: 'redirect'; href: string; certificateUid: string };

export class SmpFormatError extends Error {
  override name = 'SmpFormatError';
}

function root(xml: string, expected: string): XmlElement {
  let element: XmlElement;
  try {
    element = parseXml(xml);
  } catch (err) {
    if (err instanceof XmlError) throw new SmpFormatError(`not well-formed XML: ${err.message}`);
    throw err;
  }
  if (element.namespace !== SMP || element.name !== expected) {
    throw new SmpFormatError(`expected a Peppol SMP 1.x ${expected}, got {${element.namespace}}${element.name}`);
  }
  return element;
}

function required(parent: XmlElement, namespace: string, name: string): XmlElement {
  const child = childNamed(parent, namespace, name);
  if (!child) throw new SmpFormatError(`${parent.name} has no ${name}`);
  return child;
}

function identifier(parent: XmlElement, name: string): Identifier {
  const element = required(parent, IDS, name);
  const scheme = element.attributes.scheme;
  if (!scheme || !element.text) throw new SmpFormatError(`${name} needs a scheme and a value`);
  return { scheme, value: element.text };
}

/** The last path segment of a ServiceMetadataReference, `…/services/{document type id}`, as an identifier. */
function documentTypeOfReference(href: string): Identifier {
  const segment = /\/services\/([^/?#]+)$/.exec(href)?.[1] ?? '';
  let full = '';
  try {
    full = decodeURIComponent(segment);
  } catch {
    // Broken percent-encoding: reported below like a missing segment.
  }
  const separator = full.indexOf('::');
  if (separator <= 0) throw new SmpFormatError(`the ServiceMetadataReference ${href} does not end in /services/{scheme::document type}`);
  return { scheme: full.slice(0, separator), value: full.slice(separator + 2) };
}

export function parseServiceGroup(xml: string): ServiceGroup {
  const group = root(xml, 'ServiceGroup');
  const collection = childNamed(group, SMP, 'ServiceMetadataReferenceCollection');
  const references = collection ? childrenNamed(collection, SMP, 'ServiceMetadataReference') : [];
  return {
    participant: identifier(group, 'ParticipantIdentifier'),
    documentTypes: references.map((reference) => documentTypeOfReference(reference.attributes.href ?? '')),
  };
}

function endpoint(element: XmlElement): Endpoint {
  const address = childNamed(required(element, WSA, 'EndpointReference'), WSA, 'Address')?.text;
  if (!address) throw new SmpFormatError('an Endpoint has no EndpointReference/Address');
  const activation = childNamed(element, SMP, 'ServiceActivationDate')?.text;
  const expiration = childNamed(element, SMP, 'ServiceExpirationDate')?.text;
  return {
    transportProfile: element.attributes.transportProfile ?? '',
    address,
    certificate: childNamed(element, SMP, 'Certificate')?.text ?? '',
    ...(activation && { activation }),
    ...(expiration && { expiration }),
  };
}

export function parseServiceMetadata(xml: string): ServiceMetadata {
  const metadata = required(root(xml, 'SignedServiceMetadata'), SMP, 'ServiceMetadata');
  const redirect = childNamed(metadata, SMP, 'Redirect');
  if (redirect) {
    return { kind: 'redirect', href: redirect.attributes.href ?? '', certificateUid: childNamed(redirect, SMP, 'CertificateUID')?.text ?? '' };
  }
  const information = required(metadata, SMP, 'ServiceInformation');
  const processList = childNamed(information, SMP, 'ProcessList');
  return {
    kind: 'metadata',
    participant: identifier(information, 'ParticipantIdentifier'),
    documentType: identifier(information, 'DocumentIdentifier'),
    processes: (processList ? childrenNamed(processList, SMP, 'Process') : []).map((process) => {
      const endpointList = childNamed(process, SMP, 'ServiceEndpointList');
      return {
        process: identifier(process, 'ProcessIdentifier'),
        endpoints: (endpointList ? childrenNamed(endpointList, SMP, 'Endpoint') : []).map(endpoint),
      };
    }),
  };
}
