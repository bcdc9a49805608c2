import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

import type { StandInPeppolDirectory } from './peppol-directory';
import type { SmlRegistrations, SmpOwner } from './sml-registrations';
import { answerEnvelope, faultEnvelope, parseSmlRequest, SmlFault, type SmlService } from './sml-soap';

/**
 * The stand-in SML's management interface: SOAP 1.1 over HTTPS at
 * `/manageservicemetadata` and `/manageparticipantidentifier`, as the SML's
 * (BDMSL's) base URL serves them. Like the real one it requires a client
 * certificate (here: chained to the local test CA) at the TLS handshake and
 * knows each SMP by the certificate that created it. What it keeps and the
 * rules it applies are in sml-registrations.ts; the messages in sml-soap.ts.
 * The stand-in Peppol Directory's indexer (`/indexer/1.0/`, peppol-directory.ts)
 * is served here too: it takes the same SMP client certificates.
 */

export interface SmlServerOptions {
  port: number;
  host?: string;
  /** TLS server certificate and key (PEM). */
  certificate: string;
  key: string;
  /** The CAs a client certificate must chain to (PEM). */
  ca: string;
  registrations: SmlRegistrations;
  /** The Directory whose indexer this server also serves. */
  directory?: StandInPeppolDirectory;
  log?: (line: string) => void;
  /** Sees each request's body as it came (a test checks our SML client's messages against BDMSL's schema). */
  observe?: (service: SmlService, body: string) => void;
}

export interface RunningSmlServer {
  /** The management base URL (what an SMP is configured with). */
  url: string;
  close(): Promise<void>;
}

/** A management request is a few hundred bytes; anything near this is not one. */
const MAX_REQUEST_BYTES = 64 * 1024;
const SERVICES: readonly string[] = ['manageservicemetadata', 'manageparticipantidentifier'] satisfies SmlService[];
const INDEXER = '/indexer/1.0/';

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size <= MAX_REQUEST_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    request.on('error', reject);
  });
}

function callerOf(request: IncomingMessage): SmpOwner {
  const certificate = (request.socket as TLSSocket).getPeerCertificate();
  const subject = Object.entries(certificate.subject ?? {})
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(', ');
  return { subject, fingerprint: certificate.fingerprint256 };
}

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers });
  response.end(body);
}

/** A plain-text answer: what the indexer answers, and the refusals of what is no SOAP request. */
const sendText = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
  send(response, status, 'text/plain; charset=utf-8', body, headers);

type Log = (line: string) => void;

/** PUT /indexer/1.0/ (the participant id as the body) and DELETE /indexer/1.0/{participant id}. */
async function indexer(
  directory: StandInPeppolDirectory,
  request: IncomingMessage,
  response: ServerResponse,
  rest: string,
  log: Log,
): Promise<void> {
  const caller = callerOf(request);
  let answer;
  if (request.method === 'PUT' && rest === '') {
    const body = await readBody(request);
    if (body === undefined)
      return sendText(response, 413, `an indexer request is at most ${MAX_REQUEST_BYTES} bytes\n`);
    answer = await directory.index(body, caller);
  } else if (request.method === 'DELETE' && rest !== '') {
    let participant: string;
    try {
      participant = decodeURIComponent(rest);
    } catch {
      return sendText(response, 400, 'the participant id in the path is not percent-encoded correctly\n');
    }
    answer = await directory.remove(participant, caller);
  } else {
    return sendText(response, 405, `PUT ${INDEXER} with a participant id, or DELETE ${INDEXER}{participant id}\n`, {
      Allow: 'PUT, DELETE',
    });
  }
  log(`Directory: ${request.method} by ${caller.subject}: ${answer.status} ${answer.message}`);
  sendText(response, answer.status, answer.status === 204 ? '' : `${answer.message}\n`);
}

/**
 * A SOAP message POSTed to one of the management services: carried out by the registrations and answered with
 * its envelope, or its fault's (any other error an InternalErrorFault), each logged with what was asked.
 */
async function manage(
  service: SmlService,
  request: IncomingMessage,
  response: ServerResponse,
  options: SmlServerOptions,
  log: Log,
): Promise<void> {
  if (request.method !== 'POST') return sendText(response, 405, 'SOAP requests are POSTed\n', { Allow: 'POST' });
  const body = await readBody(request);
  if (body === undefined)
    return sendText(response, 413, `a management request is at most ${MAX_REQUEST_BYTES} bytes\n`);
  options.observe?.(service, body);
  const caller = callerOf(request);
  let what = `${service} by ${caller.subject}`;
  try {
    const parsed = parseSmlRequest(service, body);
    what = `${parsed.operation} ${'participant' in parsed ? `${parsed.participant.value} ` : ''}for SMP ${parsed.smpId} by ${caller.subject}`;
    const answer = await options.registrations.handle(parsed, caller);
    log(`SML: ${what}: done`);
    send(response, 200, 'text/xml; charset=utf-8', answerEnvelope(answer));
  } catch (err) {
    const fault =
      err instanceof SmlFault ? err : new SmlFault('InternalErrorFault', `internal error: ${(err as Error).message}`);
    log(`SML: ${what}: ${fault.kind} ${fault.message}`);
    send(response, 500, 'text/xml; charset=utf-8', faultEnvelope(fault));
  }
}

/** Sends a request to the Directory's indexer or to the management service its path names. */
async function route(
  request: IncomingMessage,
  response: ServerResponse,
  options: SmlServerOptions,
  log: Log,
): Promise<void> {
  const pathname = new URL(request.url ?? '/', 'https://sml.invalid').pathname;
  if (options.directory && pathname.startsWith(INDEXER))
    return indexer(options.directory, request, response, pathname.slice(INDEXER.length), log);
  const service = pathname.replace(/^\/+|\/+$/g, '');
  if (!SERVICES.includes(service))
    return sendText(response, 404, `not found: the services are ${SERVICES.map((name) => `/${name}`).join(' and ')}\n`);
  return manage(service as SmlService, request, response, options, log);
}

/** Listens: the running server's management base URL and how to close it. */
function listen(server: https.Server, port: number, host: string): Promise<RunningSmlServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        url: `https://127.0.0.1:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export function startSmlServer(options: SmlServerOptions): Promise<RunningSmlServer> {
  const log = options.log ?? (() => undefined);
  const server = https.createServer(
    // A client without a certificate of the CA fails the handshake: nothing reaches the handler unauthenticated.
    { cert: options.certificate, key: options.key, ca: options.ca, requestCert: true, rejectUnauthorized: true },
    (request, response) => {
      route(request, response, options, log).catch((err: unknown) => {
        log(`SML: ${(err as Error).message}`);
        response.destroy();
      });
    },
  );
  return listen(server, options.port, options.host ?? '127.0.0.1');
}
