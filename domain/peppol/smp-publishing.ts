import { create } from 'xmlbuilder2';

import { PEPPOL_AS4 } from './capabilities';
import { IDS_NAMESPACE, serviceMetadataUrl, SMP_NAMESPACE, WSA_NAMESPACE, type Identifier } from './smp';

/**
 * What a Peppol SMP 1.x publishes for a participant (the Peppol SMP
 * specification 1.4.0): its ServiceGroup, listing one
 * ServiceMetadataReference per document type, and per document type the
 * service metadata naming the processes and the access point that takes them
 * by Peppol AS4. The metadata is written unsigned; the SMP signs it
 * (platform/peppol/smp-signature.ts) before it answers.
 */

/** A service a participant receives: a document type under a process. */
export interface PublishedService {
  documentType: Identifier;
  process: Identifier;
}

/** The access point every service of the participant names. */
export interface SmpEndpoint {
  /** Where it takes AS4 messages. */
  url: string;
  /** Its certificate, PEM or base64 DER: published as base64 DER. */
  certificate: string;
  /** The SMP schema requires both: what the endpoint is, and where its operator is reached. */
  description: string;
  technicalContactUrl: string;
}

const XMLNS = 'http://www.w3.org/2000/xmlns/';

const sameIdentifier = (a: Identifier, b: Identifier) => a.scheme === b.scheme && a.value === b.value;

/** The document types of these services, each once, in their first order. */
export function documentTypesOf(services: PublishedService[]): Identifier[] {
  const types: Identifier[] = [];
  for (const { documentType } of services)
    if (!types.some((known) => sameIdentifier(known, documentType))) types.push(documentType);
  return types;
}

/** The processes under which this document type is received (document type ids compare exactly, B.1). */
export function processesFor(services: PublishedService[], documentType: Identifier): Identifier[] {
  return services
    .filter((service) => sameIdentifier(service.documentType, documentType))
    .map((service) => service.process);
}

/** The ServiceGroup: the participant and the full URL of each document type's service metadata on this SMP. */
export function serviceGroupXml(smpUrl: string, participant: Identifier, documentTypes: Identifier[]): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(SMP_NAMESPACE, 'smp:ServiceGroup')
    .att(XMLNS, 'xmlns:id', IDS_NAMESPACE);
  root.ele(IDS_NAMESPACE, 'id:ParticipantIdentifier').att('scheme', participant.scheme).txt(participant.value);
  const references = root.ele(SMP_NAMESPACE, 'smp:ServiceMetadataReferenceCollection');
  for (const documentType of documentTypes) {
    references
      .ele(SMP_NAMESPACE, 'smp:ServiceMetadataReference')
      .att('href', serviceMetadataUrl(smpUrl, participant, documentType));
  }
  return root.end({ prettyPrint: true });
}

/**
 * The SignedServiceMetadata of one document type, without its signature:
 * each process with one endpoint, Peppol AS4 at the access point. No
 * activation or expiration date: the service holds from now on (SMP 1.2.0:
 * a missing date means "since forever" / "for ever").
 */
export function serviceMetadataXml(
  participant: Identifier,
  documentType: Identifier,
  processes: Identifier[],
  endpoint: SmpEndpoint,
): string {
  const certificate = endpoint.certificate.replace(/-----[A-Z ]+-----|\s+/g, '');
  const root = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(SMP_NAMESPACE, 'SignedServiceMetadata')
    .att(XMLNS, 'xmlns:ids', IDS_NAMESPACE);
  const information = root.ele(SMP_NAMESPACE, 'ServiceMetadata').ele(SMP_NAMESPACE, 'ServiceInformation');
  information.ele(IDS_NAMESPACE, 'ids:ParticipantIdentifier').att('scheme', participant.scheme).txt(participant.value);
  information.ele(IDS_NAMESPACE, 'ids:DocumentIdentifier').att('scheme', documentType.scheme).txt(documentType.value);
  const processList = information.ele(SMP_NAMESPACE, 'ProcessList');
  for (const process of processes) {
    const entry = processList.ele(SMP_NAMESPACE, 'Process');
    entry.ele(IDS_NAMESPACE, 'ids:ProcessIdentifier').att('scheme', process.scheme).txt(process.value);
    const target = entry
      .ele(SMP_NAMESPACE, 'ServiceEndpointList')
      .ele(SMP_NAMESPACE, 'Endpoint')
      .att('transportProfile', PEPPOL_AS4);
    target.ele(WSA_NAMESPACE, 'EndpointReference').ele(WSA_NAMESPACE, 'Address').txt(endpoint.url);
    target.ele(SMP_NAMESPACE, 'RequireBusinessLevelSignature').txt('false');
    target.ele(SMP_NAMESPACE, 'Certificate').txt(certificate);
    target.ele(SMP_NAMESPACE, 'ServiceDescription').txt(endpoint.description);
    target.ele(SMP_NAMESPACE, 'TechnicalContactUrl').txt(endpoint.technicalContactUrl);
  }
  return root.end({ prettyPrint: true });
}
