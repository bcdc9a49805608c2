import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { create } from 'xmlbuilder2';

import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, BIS_BILLING_PROCESS, PEPPOL_AS4 } from '../../domain/peppol-capabilities';
import { PARTICIPANT_SCHEME } from '../../domain/peppol-sml';
import { fullIdentifier, serviceGroupUrl, serviceMetadataUrl, type Identifier } from '../../domain/peppol-smp';
import type { LocalParticipant } from './registry';

/**
 * The stand-in SMP: the read-only REST interface of a Peppol SMP 1.x
 * (reference C.7) over plain HTTP, serving a ServiceGroup per registered
 * participant and a SignedServiceMetadata per document kind it receives, all
 * pointing at one access point. Unlike a real SMP it does not sign the
 * metadata (no ds:Signature) and it speaks HTTP, not HTTPS.
 */

const SMP_NS = 'http://busdox.org/serviceMetadata/publishing/1.0/';
const IDS_NS = 'http://busdox.org/transport/identifiers/1.0/';
const WSA_NS = 'http://www.w3.org/2005/08/addressing';

const DOCUMENT_TYPES: Record<LocalParticipant['documents'][number], Identifier> = { invoice: BIS_BILLING_INVOICE, credit_note: BIS_BILLING_CREDIT_NOTE };

export interface SmpServerOptions {
  port: number;
  host?: string;
  participants: LocalParticipant[];
  /** The access point every endpoint names. */
  accessPointUrl: string;
  /** Its certificate, PEM. */
  accessPointCertificate: string;
}

export interface RunningSmpServer {
  url: string;
  close(): Promise<void>;
}

const participantOf = (entry: LocalParticipant): Identifier => ({ scheme: PARTICIPANT_SCHEME, value: entry.id });

/** Splits `scheme::value`; participant ids compare case-insensitively, document types exactly (B.1). */
function identifierOf(segment: string): Identifier | undefined {
  const separator = segment.indexOf('::');
  return separator > 0 ? { scheme: segment.slice(0, separator), value: segment.slice(separator + 2) } : undefined;
}

function serviceGroupXml(smpUrl: string, entry: LocalParticipant): string {
  const participant = participantOf(entry);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(SMP_NS, 'smp:ServiceGroup').att('http://www.w3.org/2000/xmlns/', 'xmlns:id', IDS_NS);
  root.ele(IDS_NS, 'id:ParticipantIdentifier').att('scheme', participant.scheme).txt(participant.value);
  const references = root.ele(SMP_NS, 'smp:ServiceMetadataReferenceCollection');
  for (const kind of entry.documents) {
    references.ele(SMP_NS, 'smp:ServiceMetadataReference').att('href', serviceMetadataUrl(smpUrl, participant, DOCUMENT_TYPES[kind]));
  }
  return root.end({ prettyPrint: true });
}

function serviceMetadataXml(entry: LocalParticipant, documentType: Identifier, options: SmpServerOptions): string {
  const participant = participantOf(entry);
  const certificate = options.accessPointCertificate.replace(/-----[A-Z ]+-----|\s+/g, '');
  const root = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(SMP_NS, 'SignedServiceMetadata')
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:ids', IDS_NS);
  const information = root.ele(SMP_NS, 'ServiceMetadata').ele(SMP_NS, 'ServiceInformation');
  information.ele(IDS_NS, 'ids:ParticipantIdentifier').att('scheme', participant.scheme).txt(participant.value);
  information.ele(IDS_NS, 'ids:DocumentIdentifier').att('scheme', documentType.scheme).txt(documentType.value);
  const process = information.ele(SMP_NS, 'ProcessList').ele(SMP_NS, 'Process');
  process.ele(IDS_NS, 'ids:ProcessIdentifier').att('scheme', BIS_BILLING_PROCESS.scheme).txt(BIS_BILLING_PROCESS.value);
  const endpoint = process.ele(SMP_NS, 'ServiceEndpointList').ele(SMP_NS, 'Endpoint').att('transportProfile', PEPPOL_AS4);
  endpoint.ele(WSA_NS, 'EndpointReference').ele(WSA_NS, 'Address').txt(options.accessPointUrl);
  endpoint.ele(SMP_NS, 'RequireBusinessLevelSignature').txt('false');
  endpoint.ele(SMP_NS, 'Certificate').txt(certificate);
  endpoint.ele(SMP_NS, 'ServiceDescription').txt('Access point of the local Peppol network stand-in');
  endpoint.ele(SMP_NS, 'TechnicalContactUrl').txt('https://peppol.localhost/contact');
  return root.end({ prettyPrint: true });
}

export function startSmpServer(options: SmpServerOptions): Promise<RunningSmpServer> {
  let smpUrl = '';
  const find = (segment: string) => {
    const id = identifierOf(segment);
    return id && options.participants.find((entry) => id.scheme.toLowerCase() === PARTICIPANT_SCHEME && entry.id.toLowerCase() === id.value.toLowerCase());
  };

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      res.writeHead(status, { 'Content-Type': type }).end(body);
    };
    if (req.method !== 'GET') return reply(405, 'The SMP interface is read-only: GET only.\n');
    let segments: string[];
    try {
      segments = new URL(req.url ?? '/', 'http://smp').pathname.split('/').slice(1).map(decodeURIComponent);
    } catch {
      return reply(400, 'Malformed path.\n');
    }
    if (segments.length === 1 && segments[0] === '') {
      const lines = options.participants.map((entry) => `${entry.id}  ${entry.name}  (${entry.documents.join(', ')})  ${serviceGroupUrl(smpUrl, participantOf(entry))}`);
      return reply(200, `Local Peppol network stand-in: SMP. Access point: ${options.accessPointUrl}\n\n${lines.join('\n')}\n`);
    }
    const entry = find(segments[0]!);
    if (!entry) return reply(404, 'Unknown participant.\n');
    if (segments.length === 1) return reply(200, serviceGroupXml(smpUrl, entry), 'text/xml; charset=utf-8');
    const documentType = segments.length === 3 && segments[1] === 'services' ? identifierOf(segments[2]!) : undefined;
    const kind = documentType && entry.documents.find((candidate) => fullIdentifier(DOCUMENT_TYPES[candidate]) === fullIdentifier(documentType));
    if (!kind) return reply(404, 'Unknown document type for this participant.\n');
    return reply(200, serviceMetadataXml(entry, DOCUMENT_TYPES[kind], options), 'text/xml; charset=utf-8');
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      smpUrl = `http://${address.address}:${address.port}`;
      resolve({ url: smpUrl, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}
