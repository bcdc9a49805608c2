import dgram from 'node:dgram';

import { smlDnsName } from '../../domain/peppol-sml';
import { naptrResolver, serverAddress } from '../../platform/naptr-resolver';
import { startDnsServer, type RunningDnsServer } from '../../stack/peppol-network/dns-server';

/**
 * NAPTR queries that tell their TTL (platform/naptr-resolver.ts), against the
 * local network stand-in's DNS server on a free port (it publishes TTL 60):
 * the records and TTL, and node:dns's error codes for every other answer.
 */

const ZONE = 'sml.peppol.localhost';
let dns: RunningDnsServer;
beforeAll(async () => {
  dns = await startDnsServer({ zone: ZONE, port: 0, participants: ['0208:0987654394'], smpUrl: 'http://127.0.0.1:8088' });
});
afterAll(() => dns.close());

const resolver = () => naptrResolver({ server: `127.0.0.1:${dns.port}`, timeoutMs: 500, tries: 2 });
const codeOf = (name: string, asked = resolver()) => asked.resolveNaptr(name).then(
  () => 'answered',
  (err: NodeJS.ErrnoException) => err.code,
);

describe('NAPTR queries with their TTL', () => {
  it('when the participant is published, then its record comes with the TTL the server gave', async () => {
    expect(await resolver().resolveNaptr(smlDnsName('0208:0987654394', ZONE))).toEqual({
      records: [{ order: 100, preference: 10, flags: 'U', service: 'Meta:SMP', regexp: '!.*!http://127.0.0.1:8088!', replacement: '' }],
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
      expect(await codeOf('x.example', naptrResolver({ server: `127.0.0.1:${silent.address().port}`, timeoutMs: 100, tries: 2 }))).toBe('ETIMEOUT');
    } finally {
      silent.close();
    }
    expect(await codeOf('x.example', naptrResolver({ server: '127.0.0.1:1', timeoutMs: 100, tries: 1 }))).toBe('ECONNREFUSED');
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
