import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client, Connection } from '@temporalio/client';
import type { Connection as DbConnection } from 'mongoose';

import { createApp } from '../../api/app';
import { BIS_BILLING_CREDIT_NOTE, BIS_BILLING_INVOICE } from '../../domain/peppol-capabilities';
import { smlDnsName } from '../../domain/peppol-sml';
import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { loadConfig } from '../../platform/config';
import { connectDatabase } from '../../platform/database';
import { createLogger } from '../../platform/logger';
import { officialValidator } from '../../platform/official-validator';
import { usageCounters } from '../../services/usage';
import { startDnsServer, type RunningDnsServer } from '../../stack/peppol-network/dns-server';
import { freePort } from '../../stack/ports';
import { createStore } from '../../store';
import { fakeClientIp } from '../support/accounts';
import { callApi } from '../support/http';
import { sharedStack } from '../support/test-stack';

/**
 * Public participant lookup against the shared stack's local Peppol network
 * stand-in (its SML's DNS and its SMP, real sockets), and against a DNS server
 * and SMPs that fail. Each test asks from an address of its own, so the
 * per-IP limit bites only where it is the subject.
 */

const lookup = (path: string, ip = fakeClientIp(), baseUrl?: string) =>
  callApi(path, { headers: { 'X-Forwarded-For': ip }, ...(baseUrl && { baseUrl }) });

describe('participant lookup on the local Peppol network', () => {
  it('when a participant is registered for invoices and credit notes, then the SML step, every capability and can_receive say so', async () => {
    const { peppol } = sharedStack();
    const response = await lookup('/v1/lookup/0208:0987654394');

    expect(response.status).toBe(200);
    expect(Number(response.headers.get('ratelimit-limit'))).toBe(sharedStack().lookupLimit);
    expect(response.body).toMatchObject({
      participant: { scheme: 'iso6523-actorid-upis', value: '0208:0987654394', id: 'iso6523-actorid-upis::0208:0987654394' },
      registered: true,
      sml: { zone: peppol.zone, hashed: '0208:0987654394', dns_name: smlDnsName('0208:0987654394', peppol.zone), query_type: 'NAPTR' },
      smp_url: peppol.smp,
      can_receive: { invoice: true, credit_note: true },
    });
    expect(response.body.sml.record).toMatchObject({ flags: 'U', service: 'Meta:SMP', regexp: `!.*!${peppol.smp}!` });
    expect(response.body.smp.document_types).toEqual([BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE]);
    expect(response.body.smp.services.map((service: { found: boolean }) => service.found)).toEqual([true, true]);
    expect(response.body.capabilities).toEqual(
      [BIS_BILLING_INVOICE, BIS_BILLING_CREDIT_NOTE].map((documentType, index) =>
        expect.objectContaining({
          document_type: documentType,
          billing_document: index === 0 ? 'invoice' : 'credit_note',
          process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
          transport_profile: 'peppol-transport-as4-v2_0',
          endpoint_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/as4$/),
          certificate: expect.objectContaining({ subject: expect.stringContaining('CN=PBE000002'), valid_to: expect.any(String) }),
          usable: true,
          problems: [],
        }),
      ),
    );
    expect(response.body.summary).toMatch(/^0208:0987654394 is on Peppol and can receive BIS Billing 3\.0 invoices and credit notes \(AS4 at http/);
  });

  it('when a participant is registered for invoices only, then it can receive invoices but not credit notes, and the summary says why', async () => {
    const response = await lookup('/v1/lookup/0106:12345678');
    expect(response.status).toBe(200);
    expect(response.body.capabilities).toHaveLength(1);
    expect(response.body.can_receive).toEqual({ invoice: true, credit_note: false });
    expect(response.body.summary).toMatch(/invoices .* but not credit notes \(its SMP does not list the document type\)/);
  });

  it('when the DNS step alone is asked, then it names the DNS name queried, the NAPTR record and the SMP URL it yields', async () => {
    const { peppol } = sharedStack();
    const response = await lookup('/v1/lookup/0208:0123456749/dns');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      registered: true,
      sml: { dns_name: `hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.${peppol.zone}`, record: { regexp: `!.*!${peppol.smp}!` } },
      smp_url: peppol.smp,
    });
    expect(response.body).not.toHaveProperty('capabilities');
  });

  it('when the participant is not registered, then the DNS step answers registered false and the lookup 404 participant_not_found with what was looked up', async () => {
    const { peppol } = sharedStack();
    const dnsName = smlDnsName('0208:0677424046', peppol.zone);

    const dns = await lookup('/v1/lookup/0208:0677424046/dns');
    expect(dns.status).toBe(200);
    expect(dns.body).toMatchObject({ registered: false, sml: { dns_name: dnsName, records: [], record: null }, smp_url: null });
    expect(dns.body.summary).toMatch(/not registered/);

    const full = await lookup('/v1/lookup/0208:0677424046');
    expect(full.status).toBe(404);
    expect(full.body.error).toMatchObject({ type: 'not_found', code: 'participant_not_found', details: { zone: peppol.zone, dns_name: dnsName } });
    expect(full.body.error.message).toContain('0208:0677424046 is not on Peppol');
  });

  it.each([
    ['a wrong check digit', '0208:0123456748', /check digits/],
    ['a scheme that is not a current EAS code', '0193:0123456749', /0193 is not a current Peppol EAS code/],
    ['no scheme', '0123456749', /expected scheme:id/],
  ])('when the id has %s, then both endpoints answer 400 invalid_peppol_id with the rule', async (_what, id, rule) => {
    for (const path of [`/v1/lookup/${id}`, `/v1/lookup/${id}/dns`]) {
      const response = await lookup(path);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_peppol_id', param: 'peppol_id' });
      expect(response.body.error.message).toMatch(rule);
    }
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
  const logger = createLogger('silent', 'test');
  let db: DbConnection;
  const servers: http.Server[] = [];
  const dnsServers: RunningDnsServer[] = [];

  beforeAll(async () => {
    db = await connectDatabase(sharedStack().mongodbUri);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await Promise.all(dnsServers.map((server) => server.close()));
    await db.close();
  });

  /** The API in this process, listening, with lookups going to the given DNS server and zone. */
  async function apiWith(dnsServer: string, zone = sharedStack().peppol.zone): Promise<string> {
    const config = loadConfig({ LOG_LEVEL: 'silent', PEPPOL_DNS_SERVER: dnsServer, PEPPOL_SML_ZONE: zone });
    const store = createStore(db);
    const app = createApp({
      config,
      logger,
      store,
      temporal: new Client({ connection: Connection.lazy({ address: sharedStack().temporalAddress }) }),
      probes: { db: () => Promise.resolve(true), temporal: () => Promise.resolve(true), validator: () => Promise.resolve(undefined) },
      usage: usageCounters(store, logger),
      secretBox: new SecretBox(newSecretKey()),
      kycBox: new SecretBox(newSecretKey()),
      validator: officialValidator(sharedStack().validatorUrl),
    });
    const server = await new Promise<http.Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** A stand-in SML whose every participant points at this SMP. */
  async function smlPointingAt(smpUrl: string): Promise<string> {
    const dns = await startDnsServer({ zone: 'sml.broken.localhost', port: 0, participants: ['0208:0987654394'], smpUrl });
    dnsServers.push(dns);
    return `127.0.0.1:${dns.port}`;
  }

  /** An HTTP server that answers every request with this status and body. */
  async function smpAnswering(status: number, body: string): Promise<string> {
    const server = http.createServer((_req, res) => res.writeHead(status, { 'Content-Type': 'text/html' }).end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

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

  it('when the SML names an SMP that does not know the participant, then 404 participant_not_found naming the SMP', async () => {
    const smpUrl = await smpAnswering(404, 'Not found');
    const api = await apiWith(await smlPointingAt(smpUrl), 'sml.broken.localhost');
    const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: 'participant_not_found', details: { smp_url: smpUrl } });
    expect(response.body.error.message).toContain(`its SMP ${smpUrl} does not know it`);
  });

  it.each([
    ['does not answer', async () => `http://127.0.0.1:${await freePort()}`, /could not be reached/],
    ['answers 503', () => smpAnswering(503, 'down for maintenance'), /answered HTTP 503/],
    ['answers something that is not SMP XML', () => smpAnswering(200, '<html><body>Welcome</body></html>'), /something other than Peppol SMP 1\.x XML/],
  ])('when the SMP %s, then the lookup answers 502 lookup_smp_failed naming the SMP step and its URL', async (_what, smp, reason) => {
    const smpUrl = await smp();
    const api = await apiWith(await smlPointingAt(smpUrl), 'sml.broken.localhost');

    const dns = await lookup('/v1/lookup/0208:0987654394/dns', fakeClientIp(), api);
    expect(dns.body).toMatchObject({ registered: true, smp_url: smpUrl });

    const response = await lookup('/v1/lookup/0208:0987654394', fakeClientIp(), api);
    expect(response.status).toBe(502);
    expect(response.body.error).toMatchObject({ code: 'lookup_smp_failed', details: { step: 'smp', url: `${smpUrl}/iso6523-actorid-upis%3A%3A0208%3A0987654394` } });
    expect(response.body.error.details.reason).toMatch(reason);
  });
});
