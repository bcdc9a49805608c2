import dgram from 'node:dgram';

import * as dnsPacket from 'dns-packet';

import { smlCnameDnsName, smlDnsName } from '../../domain/peppol/sml';
import { naptrResolver, serverAddress } from '../../platform/peppol/naptr';
import { startDnsServer, type RunningDnsServer } from '../../stack/peppol-network/dns-server';

/**
 * NAPTR queries that tell their TTL (platform/peppol/naptr.ts), against the
 * local network stand-in's DNS server on a free port (it publishes TTL 60):
 * the records and TTL, and node:dns's error codes for every other answer.
 * Likewise the A question the legacy SML scheme asks.
 */

const ZONE = 'sml.peppol.localhost';
let dns: RunningDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({
    zone: ZONE,
    port: 0,
    participants: ['0208:0987654394'],
    smpUrl: 'http://127.0.0.1:8088',
  });
});
afterAll(() => dns.close());

const resolver = () => naptrResolver({ server: `127.0.0.1:${dns.port}`, timeoutMs: 500, tries: 2 });
const codeOf = (name: string, asked = resolver()) =>
  asked.resolveNaptr(name).then(
    () => 'answered',
    (err: NodeJS.ErrnoException) => err.code,
  );

describe('NAPTR queries with their TTL', () => {
  it('when the participant is published, then its record comes with the TTL the server gave', async () => {
    expect(await resolver().resolveNaptr(smlDnsName('0208:0987654394', ZONE))).toEqual({
      records: [
        {
          order: 100,
          preference: 10,
          flags: 'U',
          service: 'Meta:SMP',
          regexp: '!.*!http://127.0.0.1:8088!',
          replacement: '',
        },
      ],
      ttlSeconds: 60,
    });
  });

  it.each([
    ['a name the zone does not hold (NXDOMAIN)', () => smlDnsName('0208:0000000000', ZONE), 'ENOTFOUND'],
    ['a name without NAPTR records', () => `iso6523-actorid-upis.${ZONE}`, 'ENODATA'],
    ['a name outside the zone (REFUSED)', () => 'example.com', 'EREFUSED'],
  ])('when asked %s, then it fails with the code node:dns gives', async (_what, name, code) => {
    expect(await codeOf(name())).toBe(code);
  });

  it('when nothing listens, then ECONNREFUSED; when the server is silent, then ETIMEOUT', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      expect(
        await codeOf(
          'x.example',
          naptrResolver({ server: `127.0.0.1:${silent.address().port}`, timeoutMs: 100, tries: 2 }),
        ),
      ).toBe('ETIMEOUT');
    } finally {
      silent.close();
    }
    expect(await codeOf('x.example', naptrResolver({ server: '127.0.0.1:1', timeoutMs: 100, tries: 1 }))).toBe(
      'ECONNREFUSED',
    );
  });

  it('reads server addresses as PEPPOL_DNS_SERVER allows them', () => {
    expect(['192.0.2.53', '192.0.2.53:5353', '2001:db8::53', '[2001:db8::53]:5353'].map(serverAddress)).toEqual([
      { host: '192.0.2.53', port: 53 },
      { host: '192.0.2.53', port: 5353 },
      { host: '2001:db8::53', port: 53 },
      { host: '2001:db8::53', port: 5353 },
    ]);
  });
});

describe('A queries with their TTL (the legacy SML scheme)', () => {
  const addressCodeOf = (name: string) =>
    resolver()
      .resolveAddresses(name)
      .then(
        () => 'answered',
        (err: NodeJS.ErrnoException) => err.code,
      );

  it('when the legacy name of a published participant is asked, then the address its CNAME leads to comes with the TTL', async () => {
    expect(await resolver().resolveAddresses(smlCnameDnsName('0208:0987654394', ZONE))).toEqual({
      addresses: ['127.0.0.1'],
      ttlSeconds: 60,
    });
  });

  it.each([
    ['a legacy name the zone does not hold (NXDOMAIN)', () => smlCnameDnsName('0208:0000000000', ZONE), 'ENOTFOUND'],
    ['a name without a CNAME or A record', () => `iso6523-actorid-upis.${ZONE}`, 'ENODATA'],
    ['a name outside the zone (REFUSED)', () => 'example.com', 'EREFUSED'],
  ])('when asked %s, then it fails with the code node:dns gives', async (_what, name, code) => {
    expect(await addressCodeOf(name())).toBe(code);
  });

  it("when the server answers with a CNAME it does not follow, then the name resolves, to no address, with the CNAME's TTL", async () => {
    const server = dgram.createSocket('udp4');
    server.on('message', (message, sender) => {
      const query = dnsPacket.decode(message);
      const alias: dnsPacket.Answer = {
        type: 'CNAME',
        name: query.questions![0]!.name,
        ttl: 30,
        data: 'smp.elsewhere.example',
      };
      server.send(
        dnsPacket.encode({ type: 'response', id: query.id, flags: 0, questions: query.questions, answers: [alias] }),
        sender.port,
        sender.address,
      );
    });
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    try {
      const aliasOnly = naptrResolver({ server: `127.0.0.1:${server.address().port}`, timeoutMs: 500, tries: 1 });
      expect(await aliasOnly.resolveAddresses('b-x.sml.example')).toEqual({ addresses: [], ttlSeconds: 30 });
    } finally {
      server.close();
    }
  });
});
