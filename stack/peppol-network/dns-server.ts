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

export function startDnsServer(options: DnsServerOptions): Promise<RunningDnsServer> {
  const zone = options.zone.toLowerCase();
  const registered = new Set(options.participants.map((value) => smlDnsName(value, zone)));
  // The management interface's registrations are asked by NAPTR name, which a legacy name cannot be traced back to: static participants only.
  const legacyNames = new Set(options.participants.map((value) => smlCnameDnsName(value, zone).toLowerCase()));
  const smpHost = `smp.${zone}`;
  const smpAddress: dnsPacket.Answer = { type: 'A', name: smpHost, ttl: TTL_SECONDS, data: SMP_ADDRESS };
  // The scheme label exists (it has names below it) but holds no records itself.
  const emptyNonTerminal = `${PARTICIPANT_SCHEME}.${zone}`;
  const soa: dnsPacket.Answer = {
    type: 'SOA',
    name: zone,
    ttl: TTL_SECONDS,
    data: {
      mname: `ns.${zone}`,
      rname: `hostmaster.${zone}`,
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86400,
      minimum: TTL_SECONDS,
    },
  };

  const answer = (query: dnsPacket.DecodedPacket): Buffer => {
    const question = query.questions?.[0];
    const name = question?.name.toLowerCase() ?? '';
    const respond = (rcode: number, answers: dnsPacket.Answer[] = [], authorities: dnsPacket.Answer[] = []) =>
      dnsPacket.encode({
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
    if (!question || (name !== zone && !name.endsWith(`.${zone}`))) return respond(RCODE.REFUSED);
    if (name === zone && question.type === 'SOA') return respond(RCODE.NOERROR, [soa]);
    if (legacyNames.has(name)) {
      const alias: dnsPacket.Answer = { type: 'CNAME', name: question.name, ttl: TTL_SECONDS, data: smpHost };
      // A CNAME answers every question at its name; the target is in this zone, so an A question gets its address too (RFC 1034 4.3.2).
      return respond(RCODE.NOERROR, question.type === 'A' ? [alias, smpAddress] : [alias]);
    }
    if (name === smpHost && question.type === 'A') return respond(RCODE.NOERROR, [smpAddress]);
    const smpUrl = registered.has(name) ? options.smpUrl : options.registrations?.smpUrlAt(name);
    if (smpUrl !== undefined && question.type === 'NAPTR') {
      const naptr: dnsPacket.Answer = {
        type: 'NAPTR',
        name: question.name,
        ttl: TTL_SECONDS,
        data: {
          order: 100,
          preference: 10,
          flags: 'U',
          services: 'Meta:SMP',
          regexp: options.regexp ?? `!.*!${smpUrl}!`,
          replacement: '',
        },
      };
      return respond(RCODE.NOERROR, [naptr]);
    }
    const exists = smpUrl !== undefined || name === zone || name === emptyNonTerminal || name === smpHost;
    return respond(exists ? RCODE.NOERROR : RCODE.NXDOMAIN, [], [soa]);
  };

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
    socket.send(answer(query), sender.port, sender.address);
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
