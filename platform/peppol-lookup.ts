import { Resolver } from 'node:dns/promises';

import { cannotReceive, capabilitiesOf, endpointFor, type BillingDocument, type Capability } from '../domain/peppol-capabilities';
import { PARTICIPANT_SCHEME, smlDnsName, smpRecord, smpUrlFromRegexp, type NaptrRecord } from '../domain/peppol-sml';
import {
  fullIdentifier,
  parseServiceGroup,
  parseServiceMetadata,
  serviceGroupUrl,
  serviceMetadataUrl,
  SmpFormatError,
  type Identifier,
  type ServiceGroup,
  type ServiceMetadata,
} from '../domain/peppol-smp';

/**
 * Participant discovery over the network: the SML by DNS (NAPTR), then the
 * participant's SMP over HTTP(S). Each step fails with its own error, so a
 * caller can say which one did not answer.
 */

const DNS_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;
const SMP_TIMEOUT_MS = 5_000;
/** An SMP answer is a few kilobytes; more is not an SMP answer. */
const SMP_MAX_BYTES = 1024 * 1024;
/** Service metadata read per lookup, and how many at once: a public request must stay bounded. */
const MAX_SERVICES = 100;
const SMP_CONCURRENCY = 4;

/** The SML's DNS did not answer, or answered with an error. */
export class DnsLookupError extends Error {
  override name = 'DnsLookupError';
  constructor(
    readonly dnsName: string,
    readonly reason: string,
  ) {
    super(`the SML's DNS ${reason} for ${dnsName}`);
  }
}

/** The SMP did not answer, or gave an answer that is not Peppol SMP 1.x. */
export class SmpLookupError extends Error {
  override name = 'SmpLookupError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`the SMP ${reason} (${url})`);
  }
}

export interface SmlAnswer {
  participant: Identifier;
  zone: string;
  dnsName: string;
  /** Every NAPTR record at the name; none when the name does not exist (not registered). */
  records: NaptrRecord[];
  /** The `U` / `Meta:SMP` record chosen, if any. */
  record?: NaptrRecord;
  smpUrl?: string;
  /** Why the chosen record gives no SMP URL. */
  problem?: string;
}

export interface ServiceRead {
  documentType: Identifier;
  url: string;
  /** Undefined when the SMP answered 404 for this document type. */
  metadata?: ServiceMetadata;
}

export interface SmpAnswer {
  url: string;
  serviceGroup: ServiceGroup;
  /** The service metadata of the listed document types (the first MAX_SERVICES). */
  services: ServiceRead[];
}

export interface PeppolLookup {
  /** The SML step for a participant value such as `0208:0123456749`. */
  sml(participantValue: string): Promise<SmlAnswer>;
  /** The SMP step; undefined when the SMP does not know the participant. */
  smp(smpUrl: string, participant: Identifier): Promise<SmpAnswer | undefined>;
}

const DNS_REASONS: Record<string, string> = {
  ETIMEOUT: `did not answer within ${DNS_TIMEOUT_MS / 1000} s (${DNS_TRIES} tries)`,
  ECONNREFUSED: 'refused the connection',
  ESERVFAIL: 'answered SERVFAIL',
  EREFUSED: 'refused the query',
};

async function queryNaptr(resolver: Resolver, dnsName: string): Promise<NaptrRecord[]> {
  try {
    return await resolver.resolveNaptr(dnsName);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
    // NXDOMAIN, or the name without NAPTR records: not registered (reference C.1, step 6).
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw new DnsLookupError(dnsName, DNS_REASONS[code] ?? `failed (${code})`);
  }
}

/** GET an SMP resource: its XML, or undefined on 404. Redirects are refused: the SMP named by the SML is the one asked. */
async function getXml(url: string): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', headers: { Accept: 'application/xml, text/xml' }, signal: AbortSignal.timeout(SMP_TIMEOUT_MS) });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new SmpLookupError(url, timedOut ? `did not answer within ${SMP_TIMEOUT_MS / 1000} s` : `could not be reached (${String((err as Error).cause ?? err)})`);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SmpLookupError(url, `answered HTTP ${response.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > SMP_MAX_BYTES) throw new SmpLookupError(url, `answered more than ${SMP_MAX_BYTES} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof SmpLookupError) throw err;
    throw new SmpLookupError(url, `stopped answering (${(err as Error).message})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parsed<T>(url: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SmpFormatError) throw new SmpLookupError(url, `answered with something other than Peppol SMP 1.x XML: ${err.message}`);
    throw err;
  }
}

/** Runs `work` over `items`, at most `limit` at once, keeping their order. */
async function boundedMap<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const sameParticipant = (a: Identifier, b: Identifier) => a.scheme.toLowerCase() === b.scheme.toLowerCase() && a.value.toLowerCase() === b.value.toLowerCase();

export function peppolLookup(options: { zone: string; dnsServer?: string }): PeppolLookup {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (options.dnsServer) resolver.setServers([options.dnsServer]);

  const readService = async (smpUrl: string, participant: Identifier, documentType: Identifier): Promise<ServiceRead> => {
    const url = serviceMetadataUrl(smpUrl, participant, documentType);
    const xml = await getXml(url);
    if (xml === undefined) return { documentType, url };
    const metadata = parsed(url, () => parseServiceMetadata(xml));
    if (metadata.kind === 'metadata' && (!sameParticipant(metadata.participant, participant) || fullIdentifier(metadata.documentType) !== fullIdentifier(documentType))) {
      throw new SmpLookupError(url, `answered with the metadata of ${fullIdentifier(metadata.participant)} for ${fullIdentifier(metadata.documentType)}`);
    }
    return { documentType, url, metadata };
  };

  return {
    async sml(participantValue) {
      const dnsName = smlDnsName(participantValue, options.zone);
      const records = await queryNaptr(resolver, dnsName);
      const record = smpRecord(records);
      const answer: SmlAnswer = { participant: { scheme: PARTICIPANT_SCHEME, value: participantValue }, zone: options.zone, dnsName, records, ...(record && { record }) };
      if (!record) return answer;
      const result = smpUrlFromRegexp(record.regexp, dnsName);
      return 'url' in result ? { ...answer, smpUrl: result.url } : { ...answer, problem: result.problem };
    },

    async smp(smpUrl, participant) {
      const url = serviceGroupUrl(smpUrl, participant);
      const xml = await getXml(url);
      if (xml === undefined) return undefined;
      const serviceGroup = parsed(url, () => parseServiceGroup(xml));
      if (!sameParticipant(serviceGroup.participant, participant)) {
        throw new SmpLookupError(url, `answered with the service group of ${fullIdentifier(serviceGroup.participant)}`);
      }
      const services = await boundedMap(serviceGroup.documentTypes.slice(0, MAX_SERVICES), SMP_CONCURRENCY, (documentType) =>
        readService(smpUrl, participant, documentType),
      );
      return { url, serviceGroup, services };
    },
  };
}

export type Discovery =
  | { found: true; sml: SmlAnswer; smp: SmpAnswer; capabilities: Capability[] }
  /** Not on Peppol: `why` says which step did not know the participant. */
  | { found: false; sml: SmlAnswer; why: string };

/**
 * Both steps, as a sender needs them (the public lookup and live delivery):
 * the participant's endpoints as capabilities, or why it is not on Peppol.
 * A DNS or SMP that does not answer throws its step's error.
 */
export async function discoverParticipant(lookup: PeppolLookup, participantValue: string, now: Date): Promise<Discovery> {
  const sml = await lookup.sml(participantValue);
  if (!sml.record) return { found: false, sml, why: `the SML has no Meta:SMP NAPTR record at ${sml.dnsName}` };
  if (!sml.smpUrl) throw new DnsLookupError(sml.dnsName, `published a record that gives no SMP URL (${sml.problem})`);
  const smp = await lookup.smp(sml.smpUrl, sml.participant);
  if (!smp) return { found: false, sml, why: `its SMP ${sml.smpUrl} does not know it (404)` };
  const metadata = smp.services.flatMap((service) => (service.metadata ? [service.metadata] : []));
  return { found: true, sml, smp, capabilities: capabilitiesOf(metadata, now) };
}

/**
 * Where a sender delivers a document of this kind to the participant, or why
 * it cannot (an answer that another try would not change). A DNS or SMP that
 * does not answer throws its step's error.
 */
export async function receivingEndpoint(
  lookup: PeppolLookup,
  receiver: string,
  kind: BillingDocument,
  now: Date,
): Promise<{ url: string; certificate: string } | { refusal: string }> {
  const discovery = await discoverParticipant(lookup, receiver, now);
  if (!discovery.found) return { refusal: `The receiver ${receiver} is not on the Peppol network: ${discovery.why}.` };
  return endpointFor(kind, discovery.capabilities) ?? { refusal: `The receiver ${receiver} ${cannotReceive(kind, discovery.capabilities)}.` };
}
