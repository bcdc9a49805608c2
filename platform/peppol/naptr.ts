import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { getServers } from 'node:dns';
import net from 'node:net';

import * as dnsPacket from 'dns-packet';

import type { NaptrRecord } from '../../domain/peppol/sml';

/**
 * A NAPTR query that also tells how long its answer may be kept: node:dns
 * gives the TTL of A and AAAA records only, and a lookup cache must honour
 * the SML's own TTL. One question over UDP (TCP when the answer is truncated),
 * a random id, and only an answer to that id and question is taken. Failures
 * carry node:dns's error codes (ETIMEOUT, ESERVFAIL, EREFUSED, ECONNREFUSED;
 * ENOTFOUND for NXDOMAIN, ENODATA for a name without NAPTR records), so the
 * caller reads them as it read node:dns's. The legacy SML scheme's A
 * question is asked the same way: its answer is as fresh as the CNAME on the
 * way, whose TTL node:dns does not tell either.
 */

interface NaptrAnswer {
  records: NaptrRecord[];
  /** The smallest TTL of the answer's records, in seconds. */
  ttlSeconds: number;
}

interface AddressAnswer {
  /** The IPv4 addresses the name's CNAME chain ends at; none when the server did not follow the chain to them. */
  addresses: string[];
  /** The smallest TTL of the answer's records (CNAMEs included), in seconds. */
  ttlSeconds: number;
}

export interface NaptrResolver {
  resolveNaptr(name: string): Promise<NaptrAnswer>;
  /** The A question: ENODATA only when the name has neither a CNAME nor an A record. */
  resolveAddresses(name: string): Promise<AddressAnswer>;
}

/** The one question a query asks. */
interface Question {
  type: 'NAPTR' | 'A';
  name: string;
}

/** Response codes (RFC 1035 4.1.1) as node:dns names them. */
const RCODE_ERRORS: Record<number, string> = { 2: 'ESERVFAIL', 3: 'ENOTFOUND', 5: 'EREFUSED' };
/** What we tell the server we can take over UDP (EDNS0), the size DNS flag day 2020 recommends. */
const UDP_PAYLOAD_SIZE = 1232;

const dnsError = (code: string, question: Question) =>
  Object.assign(new Error(`${question.type} ${question.name}: ${code}`), { code });

/**
 * `192.0.2.53`, `192.0.2.53:53`, `2001:db8::53` or `[2001:db8::53]:53` as host and port.
 * @internal
 */
export function serverAddress(server: string): { host: string; port: number } {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 53) };
  if (net.isIPv6(server)) return { host: server, port: 53 };
  const [host, port] = server.split(':');
  return { host: host!, port: Number(port ?? 53) };
}

/** The answer section of a response without an error code. */
function answersOf(response: dnsPacket.Packet, question: Question): dnsPacket.Answer[] {
  const rcode = (response.flags ?? 0) & 0xf;
  if (rcode !== 0) throw dnsError(RCODE_ERRORS[rcode] ?? `ERCODE${rcode}`, question);
  return response.answers ?? [];
}

// A CNAME on the way counts too: the answer is as fresh as its shortest-lived part.
const smallestTtl = (answers: dnsPacket.Answer[]) =>
  Math.min(...answers.map((answer) => ('ttl' in answer && answer.ttl !== undefined ? answer.ttl : 0)));

function naptrAnswerOf(response: dnsPacket.Packet, question: Question): NaptrAnswer {
  const answers = answersOf(response, question);
  const naptr = answers.filter((answer): answer is dnsPacket.NaptrAnswer => answer.type === 'NAPTR');
  if (naptr.length === 0) throw dnsError('ENODATA', question);
  return {
    // The root as replacement (none: the regexp applies) reads '' as node:dns gives it.
    records: naptr.map(({ data }) => ({
      order: data.order,
      preference: data.preference,
      flags: data.flags,
      service: data.services,
      regexp: data.regexp,
      replacement: data.replacement === '.' ? '' : data.replacement,
    })),
    ttlSeconds: smallestTtl(answers),
  };
}

function addressAnswerOf(response: dnsPacket.Packet, question: Question): AddressAnswer {
  const answers = answersOf(response, question);
  const chain = answers.filter((answer) => answer.type === 'CNAME' || answer.type === 'A');
  if (chain.length === 0) throw dnsError('ENODATA', question);
  return {
    addresses: chain.flatMap((answer) => (answer.type === 'A' ? [answer.data] : [])),
    ttlSeconds: smallestTtl(answers),
  };
}

const answersQuestion = (response: dnsPacket.Packet, id: number, question: Question) =>
  response.type === 'response' &&
  response.id === id &&
  response.questions?.[0]?.type === question.type &&
  response.questions[0].name.toLowerCase() === question.name.toLowerCase();

function overUdp(
  server: { host: string; port: number },
  query: Buffer,
  id: number,
  question: Question,
  timeoutMs: number,
): Promise<dnsPacket.Packet> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    const done = (settle: () => void) => {
      clearTimeout(timer);
      socket.close();
      settle();
    };
    const timer = setTimeout(() => done(() => reject(dnsError('ETIMEOUT', question))), timeoutMs);
    socket.on('error', (err: NodeJS.ErrnoException) => done(() => reject(dnsError(err.code ?? 'EUNKNOWN', question))));
    socket.on('message', (message) => {
      let response: dnsPacket.Packet;
      try {
        response = dnsPacket.decode(message);
      } catch {
        return; // Not an answer: keep waiting for one.
      }
      if (answersQuestion(response, id, question)) done(() => resolve(response));
    });
    // Connected, so an ICMP port unreachable comes back as ECONNREFUSED, and only that server's datagrams arrive.
    socket.connect(server.port, server.host, () => socket.send(query));
  });
}

function overTcp(
  server: { host: string; port: number },
  id: number,
  question: Question,
  timeoutMs: number,
): Promise<dnsPacket.Packet> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: server.host, port: server.port, timeout: timeoutMs });
    let received = Buffer.alloc(0);
    socket.on('timeout', () => {
      socket.destroy();
      reject(dnsError('ETIMEOUT', question));
    });
    socket.on('error', (err: NodeJS.ErrnoException) => reject(dnsError(err.code ?? 'EUNKNOWN', question)));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      socket.destroy();
      try {
        const response = dnsPacket.streamDecode(received);
        if (answersQuestion(response, id, question)) resolve(response);
        else reject(dnsError('EBADRESP', question));
      } catch {
        reject(dnsError('EBADRESP', question));
      }
    });
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(packetFor(id, question))));
  });
}

const packetFor = (id: number, question: Question): dnsPacket.Packet => ({
  type: 'query',
  id,
  flags: dnsPacket.RECURSION_DESIRED,
  questions: [question],
  additionals: [
    {
      type: 'OPT',
      name: '.',
      udpPayloadSize: UDP_PAYLOAD_SIZE,
      extendedRcode: 0,
      ednsVersion: 0,
      flags: 0,
      flag_do: false,
      options: [],
    },
  ],
});

/** `server`: one address (PEPPOL_DNS_SERVER); default the system's resolvers, asked in turn. */
export function naptrResolver(options: { server?: string; timeoutMs: number; tries: number }): NaptrResolver {
  const exchange = async (question: Question): Promise<dnsPacket.Packet> => {
    const servers = (options.server ? [options.server] : getServers()).map(serverAddress);
    let lastError: unknown = dnsError('ECONNREFUSED', question);
    for (let attempt = 0; attempt < options.tries; attempt += 1) {
      for (const server of servers) {
        const id = randomInt(0x10000);
        try {
          const response = await overUdp(
            server,
            dnsPacket.encode(packetFor(id, question)),
            id,
            question,
            options.timeoutMs,
          );
          return ((response.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE) !== 0
            ? await overTcp(server, id, question, options.timeoutMs)
            : response;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          // Only silence or no connection tries again: an answer (NXDOMAIN, no data, a refusal, a failure) is final.
          if (code !== 'ETIMEOUT' && code !== 'ECONNREFUSED') throw err;
          lastError = err;
        }
      }
    }
    throw lastError;
  };
  return {
    async resolveNaptr(name) {
      const question: Question = { type: 'NAPTR', name };
      return naptrAnswerOf(await exchange(question), question);
    },
    async resolveAddresses(name) {
      const question: Question = { type: 'A', name };
      return addressAnswerOf(await exchange(question), question);
    },
  };
}
