import http from 'node:http';
import type { AddressInfo } from 'node:net';

import express from 'express';

import { smpRouter, type SmpDirectory } from '../../api/smp/router';
import {
  BIS_BILLING_CII_SERVICE,
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  END_USER_STATISTICS_REPORT,
  INVOICE_RESPONSE,
  MESSAGE_LEVEL_STATUS,
  PINT_AUNZ_SERVICES,
  TRANSACTION_STATISTICS_REPORT,
} from '../../domain/peppol/capabilities';
import { PARTICIPANT_SCHEME } from '../../domain/peppol/sml';
import { serviceGroupUrl, type Identifier } from '../../domain/peppol/smp';
import type { SmpSigner } from '../../platform/peppol/smp-signature';
import type { SmpEndpoint } from '../../domain/peppol/smp-publishing';
import type { StandInPeppolDirectory } from './peppol-directory';
import type { LocalParticipant } from './registry';

/**
 * The stand-in SMP: our SMP server (api/smp/router.ts) over participants.json,
 * serving a ServiceGroup per participant and a SignedServiceMetadata per
 * document kind it receives, pointing at the stand-in's receiving access
 * point (or, for the participants Oxalis serves, at Oxalis) and signed with
 * the local test PKI's SMP certificate. Unlike a real
 * SMP it speaks HTTP, not HTTPS. Its root page lists the participants, and
 * `/stand-in/directory?q=` searches the stand-in Peppol Directory as the
 * Directory's JSON search API (`/search/1.0/json`) answers.
 */

/** Each document kind of participants.json, as the SMP lists it: document type under its process. */
const SERVICES: Record<LocalParticipant['documents'][number], { documentType: Identifier; process: Identifier }> = {
  invoice: { documentType: BIS_BILLING_INVOICE, process: BIS_BILLING_PROCESS },
  credit_note: { documentType: BIS_BILLING_CREDIT_NOTE, process: BIS_BILLING_PROCESS },
  cii: BIS_BILLING_CII_SERVICE,
  pint_invoice: PINT_AUNZ_SERVICES.invoice,
  pint_credit_note: PINT_AUNZ_SERVICES.credit_note,
  invoice_response: INVOICE_RESPONSE,
  mls: MESSAGE_LEVEL_STATUS,
  tsr: TRANSACTION_STATISTICS_REPORT,
  eusr: END_USER_STATISTICS_REPORT,
};

export interface SmpServerOptions {
  port: number;
  host?: string;
  participants: LocalParticipant[];
  /** The access point the endpoints name, and its certificate (PEM). */
  accessPointUrl: string;
  accessPointCertificate: string;
  /** The independent access point's (Oxalis), for the participants it serves. */
  oxalis: { url: string; certificate: string };
  signer: SmpSigner;
  /** Queries the stand-in's DNS got for a name, served at `/stand-in/dns-queries?name=` for tests. */
  dnsQueriesFor?: (name: string) => number;
  /** The stand-in Peppol Directory searched at `/stand-in/directory`. */
  directory?: StandInPeppolDirectory;
}

export interface RunningSmpServer {
  url: string;
  close(): Promise<void>;
}

const participantOf = (entry: LocalParticipant): Identifier => ({ scheme: PARTICIPANT_SCHEME, value: entry.id });

function participantsDirectory(participants: LocalParticipant[], oxalis: SmpEndpoint): SmpDirectory {
  return {
    servicesOf: (value) => {
      const entry = participants.find((candidate) => candidate.id.toLowerCase() === value);
      return Promise.resolve(
        entry && {
          services: entry.documents.map((kind) => ({
            documentType: SERVICES[kind].documentType,
            process: SERVICES[kind].process,
          })),
          ...(entry.accessPoint === 'oxalis' && { endpoint: oxalis }),
        },
      );
    },
  };
}

export async function startSmpServer(options: SmpServerOptions): Promise<RunningSmpServer> {
  const app = express();
  app.disable('x-powered-by');
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The URL is known once listening (a test may ask for any free port): the ServiceGroup names it.
  const address = server.address() as AddressInfo;
  const url = `http://${address.address}:${address.port}`;
  app.get('/', (_req, res) => {
    const lines = options.participants.map(
      (entry) =>
        `${entry.id}  ${entry.name}  (${entry.documents.join(', ')}${entry.accessPoint === 'oxalis' ? '; Oxalis' : ''})  ${serviceGroupUrl(url, participantOf(entry))}`,
    );
    res
      .type('text/plain')
      .send(
        `Local Peppol network stand-in: SMP. Access points: ${options.accessPointUrl} (phase4), ${options.oxalis.url} (Oxalis). Peppol Directory search: ${url}/stand-in/directory?q=\n\n${lines.join('\n')}\n`,
      );
  });
  // Not an SMP resource (no participant id has this form): how often the stand-in SML was asked for a name.
  app.get('/stand-in/dns-queries', (req, res) => {
    const name = typeof req.query.name === 'string' ? req.query.name : '';
    res.json({ name, queries: options.dnsQueriesFor?.(name) ?? 0 });
  });
  // Not an SMP resource either: the Directory's search, over the business cards the stand-in indexed.
  app.get('/stand-in/directory', (req, res) => {
    const matches = options.directory?.search(typeof req.query.q === 'string' ? req.query.q : '') ?? [];
    res.json({ version: '1.0', 'total-result-count': matches.length, 'used-result-count': matches.length, matches });
  });
  app.use(
    smpRouter({
      directory: participantsDirectory(options.participants, {
        url: options.oxalis.url,
        certificate: options.oxalis.certificate,
        description: 'Independent access point of the local Peppol network stand-in (Oxalis)',
        technicalContactUrl: 'https://peppol.localhost/contact',
      }),
      publicUrl: url,
      endpoint: {
        url: options.accessPointUrl,
        certificate: options.accessPointCertificate,
        description: 'Access point of the local Peppol network stand-in',
        technicalContactUrl: 'https://peppol.localhost/contact',
      },
      signer: options.signer,
    }),
  );
  return { url, close: () => new Promise((done) => server.close(() => done())) };
}
