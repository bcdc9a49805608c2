import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../../domain/peppol-capabilities';
import { PARTICIPANT_SCHEME } from '../../domain/peppol-sml';
import { fullIdentifier, identifierOfSegment, serviceGroupUrl, type Identifier } from '../../domain/peppol-smp';
import { serviceGroupXml, serviceMetadataXml } from '../../domain/peppol-smp-publishing';
import type { LocalParticipant } from './registry';

/**
 * The stand-in SMP: the read-only REST interface of a Peppol SMP 1.x
 * (reference C.7) over plain HTTP, serving a ServiceGroup per registered
 * participant and a SignedServiceMetadata per document kind it receives, all
 * pointing at one access point. Unlike a real SMP it does not sign the
 * metadata (no ds:Signature) and it speaks HTTP, not HTTPS.
 */

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

const ENDPOINT_TEXT = { description: 'Access point of the local Peppol network stand-in', technicalContactUrl: 'https://peppol.localhost/contact' };

export function startSmpServer(options: SmpServerOptions): Promise<RunningSmpServer> {
  let smpUrl = '';
  const find = (segment: string) => {
    const id = identifierOfSegment(segment);
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
    if (segments.length === 1) return reply(200, serviceGroupXml(smpUrl, participantOf(entry), entry.documents.map((kind) => DOCUMENT_TYPES[kind])), 'text/xml; charset=utf-8');
    const documentType = segments.length === 3 && segments[1] === 'services' ? identifierOfSegment(segments[2]!) : undefined;
    const kind = documentType && entry.documents.find((candidate) => fullIdentifier(DOCUMENT_TYPES[candidate]) === fullIdentifier(documentType));
    if (!kind) return reply(404, 'Unknown document type for this participant.\n');
    const endpoint = { url: options.accessPointUrl, certificate: options.accessPointCertificate, ...ENDPOINT_TEXT };
    return reply(200, serviceMetadataXml(participantOf(entry), DOCUMENT_TYPES[kind], [BIS_BILLING_PROCESS], endpoint), 'text/xml; charset=utf-8');
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
