import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Connection as DbConnection } from 'mongoose';

import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE, INVOICE_RESPONSE } from '../../domain/peppol/capabilities';
import { smlDnsName } from '../../domain/peppol/sml';
import { connectDatabase } from '../../platform/database';
import { discoverParticipant, peppolLookup, receivingEndpoint, SmpLookupError } from '../../platform/peppol/lookup';
import { peppolTrust } from '../../platform/peppol/trust';
import { startDnsServer, type RunningDnsServer } from '../../stack/peppol-network/dns-server';
import { freePort } from '../../stack/ports';
import { fakeClientIp } from '../support/accounts';
import { callApi } from '../support/http';
import { inProcessApp, listening } from '../support/in-process-api';
import { testCa } from '../support/test-pki';
import { sharedStack } from '../support/test-stack';

/**
 * Public participant lookup against the shared stack's local Peppol network
 * stand-in (its SML's DNS and its SMP, real sockets), and against a DNS server
 * and SMPs that fail. Each test asks from an address of its own, so the
 * per-IP limit bites only where it is the subject.
 */

const lookup = (path: string, ip = fakeClientIp(), baseUrl?: string) =>
  callApi(path, { headers: { 'X-Forwarded-For': ip }, ...(baseUrl && { baseUrl }) });

/** The trust the shared stack's API and worker have: the local test CA, for SMP signatures and access points alike. */
const localTrust = () => peppolTrust({ PEPPOL_SMP_CA: sharedStack().peppol.ca, PEPPOL_AP_CA: sharedStack().peppol.ca });

const LOCAL_SMP_SIGNER = 'C=BE, O=einvoice SMP (local test), CN=SMP local test';
// Node escapes the comma inside a name's value.
const LOCAL_CA = 'C=BE, O=einvoice (local test PKI\\, not Peppol), CN=einvoice local Peppol test CA';

describe('participant lookup on the local Peppol network', () => {
  it('when a participant is registered for invoices and credit notes, then the SML step, every capability and can_receive say so', async () => {
    const { peppol } = sharedStack();
    const response = await lookup('/v1/lookup/0208:0987654394');

    expect(response.status).toBe(200);
    expect(Number(response.headers.get('ratelimit-limit'))).toBe(sharedStack().lookupLimit);
    expect(response.body).toMatchObject({
      participant: {
        scheme: 'iso6523-actorid-upis',
        value: '0208:0987654394',
        id: 'iso6523-actorid-upis::0208:0987654394',
      },
      registered: true,
      sml: {
        zone: peppol.zone,
        hashed: '0208:0987654394',
        dns_name: smlDnsName('0208:0987654394', peppol.zone),
        query_type: 'NAPTR',
      },
      smp_url: peppol.smp,
      can_receive: { invoice: true, credit_note: true },
    });
    expect(response.body.sml.record).toMatchObject({ flags: 'U', service: 'Meta:SMP', regexp: `!.*!${peppol.smp}!` });
    // The stand-in's buyers also take Invoice Responses (under their own process), as a buyer answering our invoices would.
    expect(response.body.smp.document_types).toEqual([
      BIS_BILLING_INVOICE,
      BIS_BILLING_CREDIT_NOTE,
      INVOICE_RESPONSE.documentType,
    ]);
    expect(response.body.smp.services.map((service: { found: boolean }) => service.found)).toEqual([true, true, true]);
    // Signed by the stand-in SMP with the local PKI's SMP certificate, verified against the local CA.
    expect(response.body.smp.services.map((service: { smp_signature: unknown }) => service.smp_signature)).toEqual(
      Array.from({ length: 3 }, () => ({ verified: true, signer_subject: LOCAL_SMP_SIGNER, problem: null })),
    );
    expect(response.body.capabilities.at(-1)).toMatchObject({
      document_type: INVOICE_RESPONSE.documentType,
      process: INVOICE_RESPONSE.process,
      usable: true,
      problems: [],
    });
    expect(response.body.capabilities.slice(0, 2)).toEqual(
      [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE].map((documentType, index) =>
        expect.objectContaining({
          document_type: documentType,
          billing_document: index === 0 ? 'invoice' : 'credit_note',
          process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
          transport_profile: 'peppol-transport-as4-v2_0',
          endpoint_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/as4$/),
          certificate: expect.objectContaining({
            subject: expect.stringContaining('CN=PBE000002'),
            issuer: LOCAL_CA,
            valid_to: expect.any(String),
            chain_verified: true,
          }),
          usable: true,
          problems: [],
        }),
      ),
    );
    expect(response.body.summary).toMatch(
      /^0208:0987654394 is on Peppol and can receive BIS Billing 3\.0 invoices and credit notes \(AS4 at http/,
    );
  });

  it('when a participant is registered for invoices only, then it can receive invoices but not credit notes, and the summary says why', async () => {
    const response = await lookup('/v1/lookup/0106:12345678');
    expect(response.status).toBe(200);
    expect(response.body.capabilities).toHaveLength(1);
    expect(response.body.can_receive).toEqual({ invoice: true, credit_note: false });
    expect(response.body.summary).toMatch(
      /invoices .* but not credit notes \(its SMP does not list the document type\)/,
    );
  });

  it('when the DNS step alone is asked, then it names the DNS name queried, the NAPTR record and the SMP URL it yields', async () => {
    const { peppol } = sharedStack();
    const response = await lookup('/v1/lookup/0208:0123456749/dns');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      registered: true,
      sml: {
        dns_name: `hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.${peppol.zone}`,
        record: { regexp: `!.*!${peppol.smp}!` },
      },
      smp_url: peppol.smp,
    });
    expect(response.body).not.toHaveProperty('capabilities');
  });

  it('when the participant is not registered, then the DNS step answers registered false and the lookup 404 participant_not_found with what was looked up', async () => {
    const { peppol } = sharedStack();
    const dnsName = smlDnsName('0208:0677424046', peppol.zone);

    const dns = await lookup('/v1/lookup/0208:0677424046/dns');
    expect(dns.status).toBe(200);
    expect(dns.body).toMatchObject({
      registered: false,
      sml: { dns_name: dnsName, records: [], record: null },
      smp_url: null,
    });
    expect(dns.body.summary).toMatch(/not registered/);

    const full = await lookup('/v1/lookup/0208:0677424046');
    expect(full.status).toBe(404);
    expect(full.body.error).toMatchObject({
      type: 'not_found',
      code: 'participant_not_found',
      details: { zone: peppol.zone, dns_name: dnsName },
    });
    expect(full.body.error.message).toContain('0208:0677424046 is not on Peppol');
  });

  it.each([
    ['a wrong check digit', '0208:0123456748', /check digits/],
    ['a scheme that is not a current EAS code', '0193:0123456749', /0193 is not a current Peppol EAS code/],
    ['no scheme', '0123456749', /expected scheme:id/],
    ['a control character (a scheme without a format of its own)', '0060:12%0134', /only printable ASCII/],
    ['NUL', '0060:12%0034', /only printable ASCII/],
    ['an XML special', '0060:12%3C34', /other than space and < > &/],
  ])('when the id has %s, then both endpoints answer 400 invalid_peppol_id with the rule', async (_what, id, rule) => {
    for (const path of [`/v1/lookup/${id}`, `/v1/lookup/${id}/dns`]) {
      const response = await lookup(path);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_peppol_id', param: 'peppol_id' });
      expect(response.body.error.message).toMatch(rule);
    }
  });

  it('when the SMP names an access point at a loopback address, then a sender is refused, naming it, unless private access points are allowed', async () => {
    const { dnsServer, zone, receivingAccessPoint } = sharedStack().peppol;
    const lookupWith = (allowPrivate: boolean) =>
      peppolLookup({
        zone,
        dnsServer,
        smpAddresses: { allowPrivate: true },
        httpSmp: true,
        accessPointAddresses: { allowPrivate },
        trust: localTrust(),
      });
    const refused = await receivingEndpoint(lookupWith(false), '0208:0987654394', 'invoice', new Date());
    expect(refused).toEqual({
      refusal: `The receiver 0208:0987654394's SMP names an access point this service does not send to (${receivingAccessPoint}/as4): 127.0.0.1 resolves to 127.0.0.1, a loopback, private, link-local or otherwise internal address.`,
    });
    expect(await receivingEndpoint(lookupWith(true), '0208:0987654394', 'invoice', new Date())).toMatchObject({
      url: `${receivingAccessPoint}/as4`,
    });
  });

  it('when the SML names an http SMP, then the lookup does not ask it (Peppol SMPs are https only since 2026-02-01), unless http SMPs are allowed', async () => {
    const { dnsServer, zone, smp } = sharedStack().peppol;
    const strict = peppolLookup({ zone, dnsServer, smpAddresses: { allowPrivate: true }, trust: localTrust() });
    expect(await strict.sml('0208:0987654394')).toMatchObject({
      record: { regexp: `!.*!${smp}!` },
      problem: expect.stringContaining('https only since 2026-02-01'),
    });
    expect((await strict.sml('0208:0987654394')).smpUrl).toBeUndefined();
    await expect(discoverParticipant(strict, '0208:0987654394', new Date())).rejects.toThrow(
      /gives no usable SMP URL \(the NAPTR record names http:\/\/127\.0\.0\.1:\d+, but Peppol SMPs are https only/,
    );
    expect(
      await discoverParticipant(
        peppolLookup({ zone, dnsServer, smpAddresses: { allowPrivate: true }, httpSmp: true, trust: localTrust() }),
        '0208:0987654394',
        new Date(),
      ),
    ).toMatchObject({ found: true });
  });

  it('when the SMP signer is not issued by the trusted SMP CA, then a sender is refused, naming the signer and its issuer', async () => {
    const { dnsServer, zone } = sharedStack().peppol;
    const otherCa = new X509Certificate((await testCa('Another SMP CA')).certificate);
    const trust = { ...localTrust(), smp: { setting: 'PEPPOL_SMP_CA', certificates: [otherCa] } };
    const refused = await receivingEndpoint(
      peppolLookup({ zone, dnsServer, smpAddresses: { allowPrivate: true }, httpSmp: true, trust }),
      '0208:0987654394',
      'invoice',
      new Date(),
    );
    expect(refused).toEqual({
      refusal: `The receiver 0208:0987654394 cannot receive BIS Billing 3.0 invoices on Peppol: the SMP's signature is not verified: its signer ${LOCAL_SMP_SIGNER} is not trusted: it is not issued by a CA in PEPPOL_SMP_CA (its issuer is ${LOCAL_CA}).`,
    });
  });

  it('when one address looks up more than the hourly limit, then 429 with Retry-After and the rate-limit headers; another address still gets through', async () => {
    const { lookupLimit } = sharedStack();
    const ip = fakeClientIp();
    for (let i = 0; i < lookupLimit; i += 1) {
      const response = await lookup('/v1/lookup/0208:0987654394/dns', ip);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-remaining')).toBe(String(lookupLimit - i - 1));
    }
    const limited = await lookup('/v1/lookup/0208:0987654394/dns', ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    // The two endpoints count apart, and other addresses are not affected.
    expect((await lookup('/v1/lookup/0208:0987654394', ip)).status).toBe(200);
    expect((await lookup('/v1/lookup/0208:0987654394/dns')).status).toBe(200);
  });
});

describe('participant lookup when the network fails', () => {
  let db: DbConnection;
  const servers: http.Server[] = [];
  const apis: { close: () => Promise<void> }[] = [];
  const dnsServers: RunningDnsServer[] = [];

  beforeAll(async () => {
    db = await connectDatabase(sharedStack().mongodbUri);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await Promise.all(apis.map((api) => api.close()));
    await Promise.all(dnsServers.map((server) => server.close()));
    await db.close();
  });

  /**
   * The API in this process, listening, with lookups going to the given DNS
   * server and zone; SMPs on this host are allowed unless `publicSmpsOnly`.
   * It trusts loopback as the shared stack does: each test asks from an address of its own.
   */
  async function apiWith(dnsServer: string, zone = sharedStack().peppol.zone, publicSmpsOnly = false): Promise<string> {
    const env = {
      PEPPOL_DNS_SERVER: dnsServer,
      PEPPOL_SML_ZONE: zone,
      PEPPOL_ALLOW_PRIVATE_SMP: String(!publicSmpsOnly),
      PEPPOL_ALLOW_HTTP_SMP: 'true',
      TRUSTED_PROXIES: 'loopback',
    };
    const api = await listening(inProcessApp(db, env));
    apis.push(api);
    return api.url;
  }

  /** A stand-in SML whose every participant points at this SMP (or has this NAPTR regexp). */
  async function smlPointingAt(smpUrl: string, regexp?: string): Promise<string> {
    const dns = await startDnsServer({
      zone: 'sml.broken.localhost',
      port: 0,
      participants: ['0208:0987654394'],
      smpUrl,
      ...(regexp && { regexp }),
    });
    dnsServers.push(dns);
    return `127.0.0.1:${dns.port}`;
  }

  /** An HTTP server that answers every request with this status and body; `asked` counts the requests. */
  const asked = new Map<string, number>();
  async function smpAnswering(status: number, body: string): Promise<string> {
    const server = http.createServer((_req, res) => {
      asked.set(url, (asked.get(url) ?? 0) + 1);
      res.writeHead(status, { 'Content-Type': 'text/html' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return url;
  }

  const serviceGroupPath = '/iso6523-actorid-upis%3A%3A0208%3A0987654394';

  it('when the DNS server does not answer, then both endpoints answer 502 lookup_dns_failed naming the SML step', async () => {
    const api = await apiWith(`127.0.0.1:${await freePort()}`);
    for (const path of ['/v1/lookup/0208:0987654394', '/v1/lookup/0208:0987654394/dns']) {
      const response = await lookup(path, fakeClientIp(), api);
      expect(response.status).toBe(502);
      expect(response.body.error).toMatchObject({
        type: 'api_error',
        code: 'lookup_dns_failed',
        retry: { retryable: true },
        details: { step: 'sml', dns_name: smlDnsName('0208:0987654394', sharedStack().peppol.zone) },
      });
      expect(response.body.error.message).toMatch(/first step \(SML, DNS\)/);
    }
  });

  it('when the API has no SMP CA nor AP CA configured, then the stand-in participant is found but nothing is usable, and the lookup says why', async () => {
    const api = await apiWith(sharedStack().peppol.dnsServer);
    const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
    expect(response.status).toBe(200);
    expect(response.body.can_receive).toEqual({ invoice: false, credit_note: false });
    expect(response.body.smp.services[0].smp_signature).toEqual({
      verified: false,
      signer_subject: LOCAL_SMP_SIGNER,
      problem: `its signer ${LOCAL_SMP_SIGNER} is not trusted: PEPPOL_SMP_CA is not set (the CAs to check it against)`,
    });
    expect(response.body.capabilities[0].certificate.chain_verified).toBe(false);
    expect(response.body.capabilities[0].problems).toEqual([
      `the SMP's signature is not verified: its signer ${LOCAL_SMP_SIGNER} is not trusted: PEPPOL_SMP_CA is not set (the CAs to check it against)`,
      'the access point certificate is not trusted: PEPPOL_AP_CA is not set (the CAs to check it against)',
    ]);
    expect(response.body.summary).toMatch(
      /cannot receive BIS Billing 3\.0 invoices \(the SMP's signature is not verified: .*PEPPOL_SMP_CA is not set/,
    );
  });

  it('when the SML names an SMP that does not know the participant, then 404 participant_not_found naming the SMP', async () => {
    const smpUrl = await smpAnswering(404, 'Not found');
    const api = await apiWith(await smlPointingAt(smpUrl), 'sml.broken.localhost');
    const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'participant_not_found', details: { smp_url: smpUrl } });
    expect(response.body.error.message).toContain(`its SMP ${smpUrl} does not know it`);
  });

  it.each([
    ['does not answer', async () => `http://127.0.0.1:${await freePort()}`, 'did not answer'],
    [
      'answers 503',
      () => smpAnswering(503, 'down for maintenance'),
      'answered with something other than Peppol SMP 1.x XML',
    ],
    ['answers a redirect', () => smpAnswering(302, ''), 'answered with something other than Peppol SMP 1.x XML'],
    [
      'answers something that is not SMP XML',
      () => smpAnswering(200, '<html><body>Welcome</body></html>'),
      'answered with something other than Peppol SMP 1.x XML',
    ],
    [
      'answers XML that is not well-formed',
      () => smpAnswering(200, '<html><body>Welcome</html>'),
      'answered with something other than Peppol SMP 1.x XML',
    ],
  ])(
    'when the SMP %s, then the lookup answers 502 lookup_smp_failed naming the SMP step and its URL, in a fixed phrase (no status, parser or network detail)',
    async (_what, smp, reason) => {
      const smpUrl = await smp();
      const api = await apiWith(await smlPointingAt(smpUrl), 'sml.broken.localhost');

      const dns = await lookup('/v1/lookup/0208:0987654394/dns', fakeClientIp(), api);
      expect(dns.body).toMatchObject({ registered: true, smp_url: smpUrl });

      const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
      const url = `${smpUrl}${serviceGroupPath}`;
      expect(response.status).toBe(502);
      expect(response.body.error).toEqual({
        type: 'api_error',
        code: 'lookup_smp_failed',
        message: `The lookup failed at its second step (SMP, HTTP): the SMP ${reason} (${url}). Retry later.`,
        retry: { retryable: true },
        details: { step: 'smp', url, reason },
      });
    },
  );

  it('when the SML publishes a regexp other than the whole-name forms (one that backtracks catastrophically), then it is refused at once: no SMP URL, 502 lookup_dns_failed', async () => {
    const api = await apiWith(
      await smlPointingAt('https://smp.example.com', '!^(([a-z0-9]+)+)+\\.x$!https://smp.example.com!'),
      'sml.broken.localhost',
    );
    const started = Date.now();

    const dns = await lookup('/v1/lookup/0208:0987654394/dns', fakeClientIp(), api);
    expect(dns.status).toBe(200);
    expect(dns.body).toMatchObject({ registered: true, smp_url: null });
    expect(dns.body.summary).toMatch(
      /gives no SMP URL: the NAPTR regexp .* is not of the form !\.\*!URL! or !\^\.\*\$!URL!/,
    );

    const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({
      code: 'lookup_dns_failed',
      details: { step: 'sml', reason: expect.stringContaining('no usable SMP URL') },
    });
    // A backtracking regexp would hold the API for hours; a loaded machine still answers in a few seconds.
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);

  it.each([
    ['loopback address, by literal', (port: number) => `http://127.0.0.1:${port}`],
    ['loopback address, by name', (port: number) => `http://localhost:${port}`],
    ['loopback address, IPv4-mapped', (port: number) => `http://[::ffff:127.0.0.1]:${port}`],
    ['link-local (metadata) address, IPv4-compatible', () => 'http://[::a9fe:a9fe]'],
    ['link-local (metadata) address', () => 'http://169.254.169.254/latest/meta-data'],
  ])(
    'when the address policy is on and the SML names an SMP at a %s, then 502 lookup_smp_failed "is not at a public address", and nothing is asked of it',
    async (_what, smpAt) => {
      const internal = await smpAnswering(503, 'an internal service');
      const smpUrl = smpAt(Number(new URL(internal).port));
      const api = await apiWith(await smlPointingAt(smpUrl), 'sml.broken.localhost', true);

      const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
      expect(response.status).toBe(502);
      expect(response.body.error).toMatchObject({
        code: 'lookup_smp_failed',
        details: { step: 'smp', reason: 'is not at a public address' },
      });
      expect(response.body.error.message).toContain('the SMP is not at a public address');
      expect(asked.get(internal)).toBeUndefined();
    },
  );
});

describe('SMP requests go to the addresses checked', () => {
  const participant = { scheme: 'iso6523-actorid-upis', value: '0208:0987654394' };
  // `.invalid` never resolves in DNS: only an address the check itself resolved can be reached.
  const smpByName = () => sharedStack().peppol.smp.replace('127.0.0.1', 'smp.invalid');
  const peppolWith = (allowPrivate: boolean, resolve: (host: string) => Promise<string[]>) =>
    peppolLookup({
      zone: sharedStack().peppol.zone,
      dnsServer: sharedStack().peppol.dnsServer,
      smpAddresses: { allowPrivate, resolve },
      httpSmp: true,
      trust: localTrust(),
    });

  it('when the SMP is named by a host name, then the name is resolved once and every request of the lookup connects to the address checked (no rebinding)', async () => {
    const resolved: string[] = [];
    const discovery = peppolWith(true, (host) => {
      resolved.push(host);
      return Promise.resolve(['127.0.0.1']);
    });
    const answer = await discovery.smp(smpByName(), participant);
    expect(answer?.services.map((service) => service.metadata?.kind)).toEqual(['metadata', 'metadata', 'metadata']);
    expect(resolved).toEqual(['smp.invalid']);
  });

  it('when the name resolves to a private address with the policy on, then nothing is asked, the public reason is the fixed phrase and the message names the address for operators', async () => {
    const discovery = peppolWith(false, () => Promise.resolve(['2001:db8::1', '10.0.0.1']));
    const failure = discovery.smp(smpByName(), participant);
    await expect(failure).rejects.toBeInstanceOf(SmpLookupError);
    await expect(failure).rejects.toMatchObject({
      reason: 'is not at a public address',
      message: expect.stringContaining(
        'smp.invalid resolves to 2001:db8::1, 10.0.0.1, a loopback, private, link-local or otherwise internal address',
      ),
    });
  });
});
