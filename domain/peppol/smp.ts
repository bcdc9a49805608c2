import { childNamed, childrenNamed, parseXml, XmlError, type XmlElement } from '../xml-tree';

/**
 * The SMP step of Peppol participant discovery (reference part C.7): the REST
 * paths of a Peppol SMP 1.x and what its ServiceGroup and
 * SignedServiceMetadata answers say. Signatures are verified apart
 * (platform/peppol/smp-signature.ts); what an SMP writes is in peppol-smp-publishing.ts.
 */

export const SMP_NAMESPACE = 'http://busdox.org/serviceMetadata/publishing/1.0/';
export const IDS_NAMESPACE = 'http://busdox.org/transport/identifiers/1.0/';
export const WSA_NAMESPACE = 'http://www.w3.org/2005/08/addressing';

/** A Peppol identifier: participant, document type or process. */
export interface Identifier {
  scheme: string;
  value: string;
}

/** `scheme::value`, the full form used in SMP paths. */
export const fullIdentifier = (id: Identifier) => `${id.scheme}::${id.value}`;

/** Each full identifier is one path segment, percent-encoded (`:` → %3A, `#` → %23). */
export const serviceGroupUrl = (smpUrl: string, participant: Identifier) =>
  `${smpUrl}/${encodeURIComponent(fullIdentifier(participant))}`;

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

interface Process {
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
  if (element.namespace !== SMP_NAMESPACE || element.name !== expected) {
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
  const element = required(parent, IDS_NAMESPACE, name);
  const scheme = element.attributes.scheme;
  if (!scheme || !element.text) throw new SmpFormatError(`${name} needs a scheme and a value`);
  return { scheme, value: element.text };
}

/** A decoded path segment `scheme::value` as an identifier; undefined without a scheme. */
export function identifierOfSegment(segment: string): Identifier | undefined {
  const separator = segment.indexOf('::');
  return separator > 0 ? { scheme: segment.slice(0, separator), value: segment.slice(separator + 2) } : undefined;
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
  const documentType = identifierOfSegment(full);
  if (!documentType)
    throw new SmpFormatError(`the ServiceMetadataReference ${href} does not end in /services/{scheme::document type}`);
  return documentType;
}

export function parseServiceGroup(xml: string): ServiceGroup {
  const group = root(xml, 'ServiceGroup');
  const collection = childNamed(group, SMP_NAMESPACE, 'ServiceMetadataReferenceCollection');
  const references = collection ? childrenNamed(collection, SMP_NAMESPACE, 'ServiceMetadataReference') : [];
  return {
    participant: identifier(group, 'ParticipantIdentifier'),
    documentTypes: references.map((reference) => documentTypeOfReference(reference.attributes.href ?? '')),
  };
}

function endpoint(element: XmlElement): Endpoint {
  const address = childNamed(required(element, WSA_NAMESPACE, 'EndpointReference'), WSA_NAMESPACE, 'Address')?.text;
  if (!address) throw new SmpFormatError('an Endpoint has no EndpointReference/Address');
  const activation = childNamed(element, SMP_NAMESPACE, 'ServiceActivationDate')?.text;
  const expiration = childNamed(element, SMP_NAMESPACE, 'ServiceExpirationDate')?.text;
  return {
    transportProfile: element.attributes.transportProfile ?? '',
    address,
    certificate: childNamed(element, SMP_NAMESPACE, 'Certificate')?.text ?? '',
    ...(activation && { activation }),
    ...(expiration && { expiration }),
  };
}

export function parseServiceMetadata(xml: string): ServiceMetadata {
  const metadata = required(root(xml, 'SignedServiceMetadata'), SMP_NAMESPACE, 'ServiceMetadata');
  const redirect = childNamed(metadata, SMP_NAMESPACE, 'Redirect');
  if (redirect) {
    return {
      kind: 'redirect',
      href: redirect.attributes.href ?? '',
      certificateUid: childNamed(redirect, SMP_NAMESPACE, 'CertificateUID')?.text ?? '',
    };
  }
  const information = required(metadata, SMP_NAMESPACE, 'ServiceInformation');
  const processList = childNamed(information, SMP_NAMESPACE, 'ProcessList');
  return {
    kind: 'metadata',
    participant: identifier(information, 'ParticipantIdentifier'),
    documentType: identifier(information, 'DocumentIdentifier'),
    processes: (processList ? childrenNamed(processList, SMP_NAMESPACE, 'Process') : []).map((process) => {
      const endpointList = childNamed(process, SMP_NAMESPACE, 'ServiceEndpointList');
      return {
        process: identifier(process, 'ProcessIdentifier'),
        endpoints: (endpointList ? childrenNamed(endpointList, SMP_NAMESPACE, 'Endpoint') : []).map(endpoint),
      };
    }),
  };
}
