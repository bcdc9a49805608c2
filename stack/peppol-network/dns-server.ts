import dgram from 'node:dgram';

import * as dnsPacket from 'dns-packet';

import { PARTICIPANT_SCHEME, smlCnameDnsName, smlDnsName } from '../../domain/peppol/sml';

/**
 * The stand-in SML: an authoritative DNS server (UDP) for one zone that
 * publishes, for each registered participant, the U-NAPTR record an SML
 * publishes (reference C.2) pointing at its SMP: the local SMP for the static
 * participants, and for those registered through the SML's management
 * interface (sml-server.ts) the logical address of the SMP that registered
 * each, from the moment it did. The static participants are also published
 * in the legacy scheme (PEPPOL_SML_LOOKUP=cname): their `B-<MD5>` name is a
 * CNAME to `smp.<zone>`, whose A record is the local SMP's address. Names in
 * the zone that are not registered answer NXDOMAIN; names outside it are
 * REFUSED, as an authoritative server that does not recurse answers them.
 * dns-packet does the wire format.
 */

/** The zone the stand-in is authoritative for; `.localhost` never leaves the machine. */
export const LOCAL_SML_ZONE = 'sml.peppol.localhost';

const TTL_SECONDS = 60;
/** Where the stand-in's SMP listens (smp-server.ts binds the loopback): the legacy scheme names a host, not a URL. */
const SMP_ADDRESS = '127.0.0.1';
const RCODE = { NOERROR: 0, NXDOMAIN: 3, REFUSED: 5 } as const;

export interface DnsServerOptions {
  zone: string;
  port: number;
  host?: string;
  /** Participant values (`0208:0987654394`) to publish, pointing at `smpUrl`. */
  participants: string[];
  smpUrl: string;
  /** Participants registered through the management interface: the SMP URL at a DNS name of the zone, asked at every query. */
  registrations?: { smpUrlAt(dnsName: string): string | undefined };
  /** The NAPTR regexp published instead of the SML's `!.*!<smpUrl>!` (tests of records a lookup must refuse). */
  regexp?: string;
}

export interface RunningDnsServer {
  port: number;
  /** How many queries for `name` (any type) arrived: what tests read to see whether a lookup asked the SML or was kept. */
  queriesFor(name: string): number;
  close(): Promise<void>;
}

/** What the zone holds besides the registrations, worked out once from the options. */
interface Zone {
  /** The zone's name, lower case (names are compared so). */
  name: string;
  /** The static participants' NAPTR names. */
  registered: Set<string>;
  /** The static participants' legacy (`B-<MD5>`) names. */
  legacyNames: Set<string>;
  smpHost: string;
  smpAddress: dnsPacket.Answer;
  /** The scheme label exists (it has names below it) but holds no records itself. */
  emptyNonTerminal: string;
  soa: dnsPacket.Answer;
}

function zoneOf(options: DnsServerOptions): Zone {
  const name = options.zone.toLowerCase();
  const smpHost = `smp.${name}`;
  return {
    name,
    registered: new Set(options.participants.map((value) => smlDnsName(value, name))),
    // The management interface's registrations are asked by NAPTR name, which a legacy name cannot be traced back to: static participants only.
    legacyNames: new Set(options.participants.map((value) => smlCnameDnsName(value, name).toLowerCase())),
    smpHost,
    smpAddress: { type: 'A', name: smpHost, ttl: TTL_SECONDS, data: SMP_ADDRESS },
    emptyNonTerminal: `${PARTICIPANT_SCHEME}.${name}`,
    soa: {
      type: 'SOA',
      name,
      ttl: TTL_SECONDS,
      data: {
        mname: `ns.${name}`,
        rname: `hostmaster.${name}`,
        serial: 1,
        refresh: 3600,
        retry: 600,
        expire: 86400,
        minimum: TTL_SECONDS,
      },
    },
  };
}

/** The response to `query`: authoritative unless refused, echoing its question and whether it asked for recursion. */
function response(
  query: dnsPacket.DecodedPacket,
  rcode: number,
  answers: dnsPacket.Answer[] = [],
  authorities: dnsPacket.Answer[] = [],
): Buffer {
  return dnsPacket.encode({
    type: 'response',
    id: query.id,
    flags:
      (rcode === RCODE.REFUSED ? 0 : dnsPacket.AUTHORITATIVE_ANSWER) |
      (query.flags! & dnsPacket.RECURSION_DESIRED) |
      rcode,
    questions: query.questions,
    answers,
    authorities,
  });
}

/** The U-NAPTR record an SML publishes at a participant's name, pointing at its SMP. */
const naptrRecord = (name: string, regexp: string): dnsPacket.Answer => ({
  type: 'NAPTR',
  name,
  ttl: TTL_SECONDS,
  data: { order: 100, preference: 10, flags: 'U', services: 'Meta:SMP', regexp, replacement: '' },
});

/** What the zone answers to one query (its first question). */
function answer(query: dnsPacket.DecodedPacket, zone: Zone, options: DnsServerOptions): Buffer {
  const question = query.questions?.[0];
  const name = question?.name.toLowerCase() ?? '';
  if (!question || (name !== zone.name && !name.endsWith(`.${zone.name}`))) return response(query, RCODE.REFUSED);
  if (name === zone.name && question.type === 'SOA') return response(query, RCODE.NOERROR, [zone.soa]);
  if (zone.legacyNames.has(name)) {
    const alias: dnsPacket.Answer = { type: 'CNAME', name: question.name, ttl: TTL_SECONDS, data: zone.smpHost };
    // A CNAME answers every question at its name; the target is in this zone, so an A question gets its address too (RFC 1034 4.3.2).
    return response(query, RCODE.NOERROR, question.type === 'A' ? [alias, zone.smpAddress] : [alias]);
  }
  if (name === zone.smpHost && question.type === 'A') return response(query, RCODE.NOERROR, [zone.smpAddress]);
  const smpUrl = zone.registered.has(name) ? options.smpUrl : options.registrations?.smpUrlAt(name);
  if (smpUrl !== undefined && question.type === 'NAPTR')
    return response(query, RCODE.NOERROR, [naptrRecord(question.name, options.regexp ?? `!.*!${smpUrl}!`)]);
  const exists = smpUrl !== undefined || name === zone.name || name === zone.emptyNonTerminal || name === zone.smpHost;
  return response(query, exists ? RCODE.NOERROR : RCODE.NXDOMAIN, [], [zone.soa]);
}

export function startDnsServer(options: DnsServerOptions): Promise<RunningDnsServer> {
  const zone = zoneOf(options);
  const queries = new Map<string, number>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, sender) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return; // Not DNS: nothing to answer.
    }
    const asked = query.questions?.[0]?.name.toLowerCase();
    if (asked !== undefined) queries.set(asked, (queries.get(asked) ?? 0) + 1);
    socket.send(answer(query, zone, options), sender.port, sender.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port, options.host ?? '127.0.0.1', () => {
      socket.off('error', reject);
      resolve({
        port: socket.address().port,
        queriesFor: (name) => queries.get(name.toLowerCase()) ?? 0,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
