import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { cnameSmpUrl, smlCnameDnsName, smlDnsName } from '../../domain/peppol/sml';
import { discoverParticipant, DnsLookupError, peppolLookup } from '../../platform/peppol/lookup';
import { peppolTrust } from '../../platform/peppol/trust';
import { startDnsServer, type RunningDnsServer } from '../../stack/peppol-network/dns-server';

/**
 * The legacy SML scheme (PEPPOL_SML_LOOKUP=cname): the name against
 * peppol-commons' PeppolURLProvider vectors, the stand-in DNS publishing it,
 * and the SML step over it against that server on a free port. The zone is
 * under `.test`, which no system resolver answers: an SMP host that resolves
 * was resolved by the stand-in.
 */

const ZONE = 'sml.test';
const REGISTERED = '0208:0987654394';
const UNREGISTERED = '0208:0677424046';

describe('the legacy SML name of a participant', () => {
  it.each([
    // PeppolURLProviderTest: the value lower-cased before MD5, so both spellings give one name.
    [
      '0088:123abc',
      'edelivery.tech.ec.europa.eu',
      'B-f5e78500450d37de5aabe6648ac3bb70.iso6523-actorid-upis.edelivery.tech.ec.europa.eu',
    ],
    [
      '0088:123ABC',
      'edelivery.tech.ec.europa.eu',
      'B-f5e78500450d37de5aabe6648ac3bb70.iso6523-actorid-upis.edelivery.tech.ec.europa.eu',
    ],
    [
      '9915:test',
      'acc.edelivery.tech.ec.europa.eu',
      'B-85008b8279e07ab0392da75fa55856a2.iso6523-actorid-upis.acc.edelivery.tech.ec.europa.eu',
    ],
  ])('reproduces peppol-commons for %s in %s', (value, zone, name) => {
    expect(smlCnameDnsName(value, zone)).toBe(name);
  });

  it('names the SMP at the root of that name over http, on port 80 unless a stand-in says otherwise', () => {
    const name = smlCnameDnsName('0088:123ABC', 'edelivery.tech.ec.europa.eu');
    expect(cnameSmpUrl(name)).toBe(
      'http://B-f5e78500450d37de5aabe6648ac3bb70.iso6523-actorid-upis.edelivery.tech.ec.europa.eu',
    );
    expect(cnameSmpUrl(name, 8088)).toBe(
      'http://B-f5e78500450d37de5aabe6648ac3bb70.iso6523-actorid-upis.edelivery.tech.ec.europa.eu:8088',
    );
  });
});

describe('the legacy scheme on the stand-in DNS and the SML step over it', () => {
  let dns: RunningDnsServer;
  let server: string;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: ZONE, port: 0, participants: [REGISTERED], smpUrl: 'http://127.0.0.1:8088' });
    server = `127.0.0.1:${dns.port}`;
  });
  afterAll(() => dns.close());

  // Nothing here reads service metadata, so nothing needs to be trusted.
  const lookupOn = (options: { zone?: string; cnameSmpPort?: number } = {}) =>
    peppolLookup({
      zone: ZONE,
      smlLookup: 'cname',
      dnsServer: server,
      ...options,
      smpAddresses: { allowPrivate: true },
      trust: peppolTrust({ PEPPOL_SMP_CA: undefined, PEPPOL_AP_CA: undefined }),
    });

  it('when a registered participant is asked by node:dns, then its legacy name is a CNAME to smp.<zone>, which has the loopback address, and its NAPTR name is still published', async () => {
    const resolver = new Resolver();
    resolver.setServers([server]);
    const name = smlCnameDnsName(REGISTERED, ZONE);
    expect(await resolver.resolveCname(name)).toEqual([`smp.${ZONE}`]);
    expect(await resolver.resolve4(name)).toEqual(['127.0.0.1']);
    expect(await resolver.resolve4(`smp.${ZONE}`)).toEqual(['127.0.0.1']);
    expect(await resolver.resolveNaptr(smlDnsName(REGISTERED, ZONE))).toEqual([
      expect.objectContaining({ regexp: '!.*!http://127.0.0.1:8088!' }),
    ]);
    await expect(resolver.resolve4(smlCnameDnsName(UNREGISTERED, ZONE))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('when the name resolves, then the SML answer names the http SMP at it, on the configured port, with the TTL and no NAPTR records', async () => {
    const name = smlCnameDnsName(REGISTERED, ZONE);
    expect(await lookupOn({ cnameSmpPort: 8088 }).sml(REGISTERED)).toEqual({
      participant: { scheme: 'iso6523-actorid-upis', value: REGISTERED },
      zone: ZONE,
      dnsName: name,
      records: [],
      smlLookup: 'cname',
      smpUrl: `http://${name}:8088`,
      ttlSeconds: 60,
    });
    expect((await lookupOn().sml(REGISTERED)).smpUrl).toBe(`http://${name}`);
  });

  it('when the name does not exist (NXDOMAIN), then the participant is not registered and discovery says which name', async () => {
    const lookup = lookupOn();
    const sml = await lookup.sml(UNREGISTERED);
    expect(sml).toEqual({
      participant: { scheme: 'iso6523-actorid-upis', value: UNREGISTERED },
      zone: ZONE,
      dnsName: smlCnameDnsName(UNREGISTERED, ZONE),
      records: [],
      smlLookup: 'cname',
    });
    expect(await discoverParticipant(lookup, UNREGISTERED, new Date())).toEqual({
      found: false,
      sml,
      why: `the SML's name ${sml.dnsName} does not resolve`,
    });
  });

  it('when the DNS server does not answer for the zone, then the SML step fails as in the NAPTR scheme', async () => {
    await expect(lookupOn({ zone: 'elsewhere.test' }).sml(REGISTERED)).rejects.toMatchObject({
      constructor: DnsLookupError,
      dnsName: smlCnameDnsName(REGISTERED, 'elsewhere.test'),
      reason: 'refused the query',
    });
  });

  it('when the SMP is asked, then its legacy name is resolved by the configured DNS server and the request goes to that address', async () => {
    const hosts: (string | undefined)[] = [];
    const smp = http.createServer((request, response) => {
      hosts.push(request.headers.host);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => smp.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = smp.address() as AddressInfo;
      const lookup = lookupOn({ cnameSmpPort: port });
      const sml = await lookup.sml(REGISTERED);
      // 404 for the service group: the SMP was reached, and does not know the participant.
      expect(await lookup.smp(sml.smpUrl!, sml.participant)).toBeUndefined();
      expect(hosts).toEqual([`${sml.dnsName.toLowerCase()}:${port}`]);
    } finally {
      await new Promise((resolve) => smp.close(resolve));
    }
  });
});
