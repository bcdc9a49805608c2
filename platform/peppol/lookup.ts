import http from 'node:http';
import https from 'node:https';

import type { TrustAnchors } from '../../domain/peppol/certificate-trust';
import {
  cannotReceive,
  capabilitiesOf,
  endpointFor,
  type Capability,
  type Deliverable,
  type SignatureCheck,
} from '../../domain/peppol/capabilities';
import {
  cnameSmpUrl,
  PARTICIPANT_SCHEME,
  smlCnameDnsName,
  smlDnsName,
  smpRecord,
  smpUrlFromRegexp,
  type NaptrRecord,
  type SmlLookup,
} from '../../domain/peppol/sml';
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
} from '../../domain/peppol/smp';
import { checkHost, pinnedLookup, type AddressPolicy } from '../public-host';
import { naptrResolver, type NaptrResolver } from './naptr';
import { peppolTrust, type PeppolTrust } from './trust';
import type { Config } from '../config';
import { verifyServiceMetadata } from './smp-signature';

/**
 * Participant discovery over the network: the SML by DNS (NAPTR; or, where
 * PEPPOL_SML_LOOKUP says so, the legacy scheme's name and its address), then
 * the participant's SMP over HTTP(S). Each step fails with its own error, so a
 * caller can say which one did not answer. The SMP is named by whoever
 * registered the participant, so it is asked only at addresses the address
 * policy allows (platform/public-host.ts), pinned to them. Each service
 * metadata answer's signature is verified against the SMP CA; an answer
 * that fails it is still read, and what it says is not usable.
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

/**
 * How an SMP failure is told to the public: fixed phrases, never the status,
 * parser message or network error behind them, so the public lookup cannot
 * be used to tell apart how other hosts answer.
 */
const SMP_FAILURES = {
  notPublic: 'is not at a public address',
  noAnswer: 'did not answer',
  notSmp: 'answered with something other than Peppol SMP 1.x XML',
} as const;

/** The SMP did not answer, or gave an answer that is not Peppol SMP 1.x, or is not at an address we may ask. */
export class SmpLookupError extends Error {
  override name = 'SmpLookupError';
  /** What went wrong in one of the fixed phrases: what the public lookup answers. */
  readonly reason: string;
  constructor(
    readonly url: string,
    failure: keyof typeof SMP_FAILURES,
    /** What happened, for operators (the message: logs and live delivery's history). */
    detail: string,
  ) {
    super(`the SMP ${detail} (${url})`);
    this.reason = SMP_FAILURES[failure];
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
  /** How long the SML's DNS lets the records be kept (their TTL); unset when there are none. */
  ttlSeconds?: number;
  /**
   * Set when the SML was asked by the legacy scheme: then there are no NAPTR
   * records, the participant is registered when its name resolves, and
   * `smpUrl` is that name over http.
   */
  smlLookup?: 'cname';
}

interface ServiceRead {
  documentType: Identifier;
  url: string;
  /** Undefined when the SMP answered 404 for this document type. */
  metadata?: ServiceMetadata;
  /** The SMP's signature over the metadata; set with it. */
  signature?: SignatureCheck;
}

export interface SmpAnswer {
  url: string;
  serviceGroup: ServiceGroup;
  /** The service metadata of the listed document types (the first MAX_SERVICES). */
  services: ServiceRead[];
}

export interface PeppolLookup {
  /** Which access point addresses a sender may deliver to (an SMP names them, so the SMP address rule applies). */
  accessPointAddresses: AddressPolicy;
  /** The CAs an access point certificate must be issued by. */
  accessPointTrust: TrustAnchors;
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

/** What the SML's DNS answers at `dnsName`; undefined when the participant is not registered. */
async function querySml<T>(dnsName: string, query: () => Promise<T>): Promise<T | undefined> {
  try {
    return await query();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unknown';
    // NXDOMAIN, or the name without the records asked for: not registered (reference C.1, step 6).
    if (code === 'ENOTFOUND' || code === 'ENODATA') return undefined;
    throw new DnsLookupError(dnsName, DNS_REASONS[code] ?? `failed (${code})`);
  }
}

/**
 * GET an SMP resource, connecting to the checked addresses only: its XML, or
 * undefined on 404. Redirects are not followed: the SMP named by the SML is
 * the one asked.
 */
function getXml(url: string, addresses: string[], agent: http.Agent): Promise<string | undefined> {
  const target = new URL(url);
  const signal = AbortSignal.timeout(SMP_TIMEOUT_MS);
  const timedOut = `did not answer within ${SMP_TIMEOUT_MS / 1000} s`;
  return new Promise((resolve, reject) => {
    const fail = (failure: keyof typeof SMP_FAILURES, detail: string) =>
      reject(new SmpLookupError(url, failure, detail));
    const request = (target.protocol === 'https:' ? https : http).get(
      target,
      { agent, headers: { Accept: 'application/xml, text/xml' }, lookup: pinnedLookup(addresses), signal },
      (response) => {
        if (response.statusCode === 404) {
          response.resume();
          resolve(undefined);
          return;
        }
        if (response.statusCode !== 200) {
          response.destroy();
          fail('notSmp', `answered HTTP ${response.statusCode}`);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= SMP_MAX_BYTES) chunks.push(chunk);
          else {
            response.destroy();
            fail('notSmp', `answered more than ${SMP_MAX_BYTES} bytes`);
          }
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        // After the end, or a failure already told, these change nothing.
        response.on('error', (err) =>
          fail('noAnswer', signal.aborted ? timedOut : `stopped answering (${err.message})`),
        );
        response.on('close', () => fail('noAnswer', signal.aborted ? timedOut : 'stopped answering'));
      },
    );
    request.on('error', (err) => fail('noAnswer', signal.aborted ? timedOut : `could not be reached (${err.message})`));
  });
}

function parsed<T>(url: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof SmpFormatError)
      throw new SmpLookupError(url, 'notSmp', `answered with something other than Peppol SMP 1.x XML: ${err.message}`);
    throw err;
  }
}

/** Runs `work` over `items`, at most `limit` at once, keeping their order; after a failure nothing more is started. */
async function boundedMap<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const sameParticipant = (a: Identifier, b: Identifier) =>
  a.scheme.toLowerCase() === b.scheme.toLowerCase() && a.value.toLowerCase() === b.value.toLowerCase();

export interface PeppolLookupOptions {
  zone: string;
  /** How the SML is asked (PEPPOL_SML_LOOKUP); default U-NAPTR. */
  smlLookup?: SmlLookup;
  /** The SMP port of the legacy scheme (PEPPOL_SML_CNAME_SMP_PORT); default the 80 it fixes. */
  cnameSmpPort?: number;
  /** The DNS server for the SML step (and, in the legacy scheme, for the SMP's address); default the system resolver. */
  dnsServer?: string;
  /** Which SMP addresses may be asked (private ones only where PEPPOL_ALLOW_PRIVATE_SMP says so). */
  smpAddresses: AddressPolicy;
  /**
   * Whether the SML may name an `http:` SMP (PEPPOL_ALLOW_HTTP_SMP; the local stand-in's): on Peppol, SMPs are https
   * only since 2026-02-01 (SMP 1.4.0, T3 of OpenPeppol's CNAME to NAPTR migration). The legacy scheme is http by definition.
   */
  httpSmp?: boolean;
  /** Which access point addresses the SMPs may send us to; by default the SMPs' own rule. */
  accessPointAddresses?: AddressPolicy;
  /** The CAs SMP signatures and access point certificates must chain to (platform/peppol/trust.ts). */
  trust: PeppolTrust;
}

export function peppolLookup(options: PeppolLookupOptions): PeppolLookup {
  const resolver = naptrResolver({
    ...(options.dnsServer && { server: options.dnsServer }),
    timeoutMs: DNS_TIMEOUT_MS,
    tries: DNS_TRIES,
  });
  const cname = options.smlLookup === 'cname';
  // The legacy scheme's SMP host is the SML's own name: where a DNS server is configured (a network of its own), only it knows that name.
  const smpAddresses: AddressPolicy =
    cname && options.dnsServer
      ? { resolve: async (host) => (await resolver.resolveAddresses(host)).addresses, ...options.smpAddresses }
      : options.smpAddresses;

  return {
    accessPointAddresses: options.accessPointAddresses ?? options.smpAddresses,
    accessPointTrust: options.trust.accessPoint,

    sml(participantValue) {
      const participant = { scheme: PARTICIPANT_SCHEME, value: participantValue };
      return cname ? cnameSml(options, resolver, participant) : naptrSml(options, resolver, participant);
    },

    smp: (smpUrl, participant) => readSmp(smpAddresses, options.trust, smpUrl, participant),
  };
}

async function naptrSml(
  options: PeppolLookupOptions,
  resolver: NaptrResolver,
  participant: Identifier,
): Promise<SmlAnswer> {
  const dnsName = smlDnsName(participant.value, options.zone);
  const { records, ttlSeconds } = (await querySml(dnsName, () => resolver.resolveNaptr(dnsName))) ?? {
    records: [],
    ttlSeconds: undefined,
  };
  const record = smpRecord(records);
  const answer: SmlAnswer = {
    participant,
    zone: options.zone,
    dnsName,
    records,
    ...(record && { record }),
    ...(ttlSeconds !== undefined && { ttlSeconds }),
  };
  if (!record) return answer;
  const result = smpUrlFromRegexp(record.regexp);
  if (!('url' in result)) return { ...answer, problem: result.problem };
  if (result.url.startsWith('http:') && !options.httpSmp)
    return {
      ...answer,
      problem: `the NAPTR record names ${result.url}, but Peppol SMPs are https only since 2026-02-01 (SMP 1.4.0)`,
    };
  return { ...answer, smpUrl: result.url };
}

async function cnameSml(
  options: PeppolLookupOptions,
  resolver: NaptrResolver,
  participant: Identifier,
): Promise<SmlAnswer> {
  const dnsName = smlCnameDnsName(participant.value, options.zone);
  const resolved = await querySml(dnsName, () => resolver.resolveAddresses(dnsName));
  const answer: SmlAnswer = { participant, zone: options.zone, dnsName, records: [], smlLookup: 'cname' };
  return resolved
    ? { ...answer, smpUrl: cnameSmpUrl(dnsName, options.cnameSmpPort), ttlSeconds: resolved.ttlSeconds }
    : answer;
}

async function readService(
  trust: PeppolTrust,
  smpUrl: string,
  addresses: string[],
  agent: http.Agent,
  participant: Identifier,
  documentType: Identifier,
): Promise<ServiceRead> {
  const url = serviceMetadataUrl(smpUrl, participant, documentType);
  const xml = await getXml(url, addresses, agent);
  if (xml === undefined) return { documentType, url };
  const metadata = parsed(url, () => parseServiceMetadata(xml));
  if (
    metadata.kind === 'metadata' &&
    (!sameParticipant(metadata.participant, participant) ||
      fullIdentifier(metadata.documentType) !== fullIdentifier(documentType))
  ) {
    throw new SmpLookupError(
      url,
      'notSmp',
      `answered with the metadata of ${fullIdentifier(metadata.participant)} for ${fullIdentifier(metadata.documentType)}`,
    );
  }
  return { documentType, url, metadata, signature: verifyServiceMetadata(xml, trust.smp, new Date()) };
}

/** The participant's service group at its SMP, and the metadata of each document type it lists (at most MAX_SERVICES). */
async function readSmp(
  smpAddresses: AddressPolicy,
  trust: PeppolTrust,
  smpUrl: string,
  participant: Identifier,
): Promise<SmpAnswer | undefined> {
  const url = serviceGroupUrl(smpUrl, participant);
  const base = new URL(smpUrl);
  const host = await checkHost(base, smpAddresses);
  if (!host.ok) {
    throw host.problem === 'not_public'
      ? new SmpLookupError(url, 'notPublic', `is not at a public address: ${host.reason}`)
      : new SmpLookupError(url, 'noAnswer', `could not be reached: ${host.reason}`);
  }
  // Connections of this lookup only, kept for its requests and closed after them.
  const agent = new (base.protocol === 'https:' ? https : http).Agent({ keepAlive: true });
  try {
    const xml = await getXml(url, host.addresses, agent);
    if (xml === undefined) return undefined;
    const serviceGroup = parsed(url, () => parseServiceGroup(xml));
    if (!sameParticipant(serviceGroup.participant, participant)) {
      throw new SmpLookupError(
        url,
        'notSmp',
        `answered with the service group of ${fullIdentifier(serviceGroup.participant)}`,
      );
    }
    const services = await boundedMap(
      serviceGroup.documentTypes.slice(0, MAX_SERVICES),
      SMP_CONCURRENCY,
      (documentType) => readService(trust, smpUrl, host.addresses, agent, participant, documentType),
    );
    return { url, serviceGroup, services };
  } finally {
    agent.destroy();
  }
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
export async function discoverParticipant(
  lookup: PeppolLookup,
  participantValue: string,
  now: Date,
): Promise<Discovery> {
  const sml = await lookup.sml(participantValue);
  if (!sml.smpUrl) {
    // The legacy scheme has no records to read: a name that resolves names its SMP.
    if (sml.smlLookup === 'cname') return { found: false, sml, why: `the SML's name ${sml.dnsName} does not resolve` };
    if (!sml.record) return { found: false, sml, why: `the SML has no Meta:SMP NAPTR record at ${sml.dnsName}` };
    throw new DnsLookupError(sml.dnsName, `published a record that gives no usable SMP URL (${sml.problem})`);
  }
  const smp = await lookup.smp(sml.smpUrl, sml.participant);
  if (!smp) return { found: false, sml, why: `its SMP ${sml.smpUrl} does not know it (404)` };
  const found = smp.services.flatMap(({ metadata, signature }) =>
    metadata && signature ? [{ metadata, signature }] : [],
  );
  return { found: true, sml, smp, capabilities: capabilitiesOf(found, now, lookup.accessPointTrust) };
}

/**
 * Where a sender delivers a document of this kind to the participant, or why
 * it cannot (an answer that another try would not change). Given several
 * kinds, the first the participant takes, and which (`chosen`, its index);
 * the refusal names the first. A DNS or SMP that does not answer throws its
 * step's error.
 */
export async function receivingEndpoint(
  lookup: PeppolLookup,
  receiver: string,
  what: Deliverable | Deliverable[],
  now: Date,
): Promise<{ url: string; certificate: string; chosen: number } | { refusal: string }> {
  const kinds = Array.isArray(what) ? what : [what];
  const discovery = await discoverParticipant(lookup, receiver, now);
  if (!discovery.found) return { refusal: `The receiver ${receiver} is not on the Peppol network: ${discovery.why}.` };
  const offered = kinds.map((kind) => endpointFor(kind, discovery.capabilities));
  const chosen = offered.findIndex((candidate) => candidate !== undefined);
  if (chosen < 0) return { refusal: `The receiver ${receiver} ${cannotReceive(kinds[0]!, discovery.capabilities)}.` };
  const endpoint = { ...offered[chosen]!, chosen };
  // The SMP chose this address: our access point would POST there, so it must be one the address rule allows.
  // A name that does not resolve now is left to the access point, whose failure is retried.
  const host = await checkHost(new URL(endpoint.url), lookup.accessPointAddresses);
  if (!host.ok && host.problem === 'not_public') {
    return {
      refusal: `The receiver ${receiver}'s SMP names an access point this service does not send to (${endpoint.url}): ${host.reason}.`,
    };
  }
  return endpoint;
}

/** The network lookup the service's configuration describes: the API's lookup routes and the worker's sends use this one. */
export function peppolLookupFrom(config: Config): PeppolLookup {
  return peppolLookup({
    zone: config.PEPPOL_SML_ZONE,
    smlLookup: config.PEPPOL_SML_LOOKUP,
    cnameSmpPort: config.PEPPOL_SML_CNAME_SMP_PORT,
    httpSmp: config.PEPPOL_ALLOW_HTTP_SMP,
    dnsServer: config.PEPPOL_DNS_SERVER,
    smpAddresses: { allowPrivate: config.PEPPOL_ALLOW_PRIVATE_SMP },
    trust: peppolTrust(config),
  });
}
