import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { loadConfig } from '../../platform/config';
import { peppolTrust } from '../../platform/peppol/trust';
import { issuedBy, testCa } from '../support/test-pki';

describe('participant lookup configuration', () => {
  it('when nothing is set, then lookups query the production SML with the system resolver, 100 per IP address per hour', () => {
    expect(loadConfig({})).toMatchObject({
      PEPPOL_SML_ZONE: 'participant.sml.prod.tech.peppol.org',
      PEPPOL_DNS_SERVER: undefined,
      LOOKUP_LIMIT: 100,
    });
  });

  it('when nothing is set, then lookups ask the SML for NAPTR records, and a legacy lookup would ask the SMP on port 80', () => {
    expect(loadConfig({})).toMatchObject({ PEPPOL_SML_LOOKUP: 'naptr', PEPPOL_SML_CNAME_SMP_PORT: 80 });
  });

  it('when nothing is set, then an SML naming an http SMP is not followed (Peppol SMPs are https only); a local network may allow it', () => {
    expect(loadConfig({}).PEPPOL_ALLOW_HTTP_SMP).toBe(false);
    expect(loadConfig({ PEPPOL_ALLOW_HTTP_SMP: 'true' }).PEPPOL_ALLOW_HTTP_SMP).toBe(true);
  });

  it('when the legacy scheme is chosen for a stand-in network, then the lookup and its SMP port are taken', () => {
    expect(loadConfig({ PEPPOL_SML_LOOKUP: 'cname', PEPPOL_SML_CNAME_SMP_PORT: '8088' })).toMatchObject({
      PEPPOL_SML_LOOKUP: 'cname',
      PEPPOL_SML_CNAME_SMP_PORT: 8088,
    });
  });

  it('when a zone is written loosely, then it is lower-cased and its trailing dot dropped', () => {
    expect(loadConfig({ PEPPOL_SML_ZONE: 'Participant.SML.Test.Tech.Peppol.org.' }).PEPPOL_SML_ZONE).toBe(
      'participant.sml.test.tech.peppol.org',
    );
  });

  it.each(['192.0.2.53', '192.0.2.53:5353', '2001:db8::53', '[2001:db8::53]:53'])(
    'accepts the DNS server %s',
    (server) => {
      expect(loadConfig({ PEPPOL_DNS_SERVER: server }).PEPPOL_DNS_SERVER).toBe(server);
    },
  );

  it.each([
    ['PEPPOL_DNS_SERVER', 'dns.example.com:53'],
    ['PEPPOL_DNS_SERVER', '192.0.2.53:0'],
    ['PEPPOL_DNS_SERVER', '[192.0.2.53]:53'],
    ['PEPPOL_SML_ZONE', 'not a zone'],
    ['PEPPOL_SML_LOOKUP', 'srv'],
    ['PEPPOL_SML_CNAME_SMP_PORT', '0'],
    ['LOOKUP_LIMIT', '0'],
  ])('when %s is %j, then start-up fails naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });
});

describe('the CAs participant lookups trust', () => {
  let dir: string;
  let files: { ca: string; leaf: string; missing: string };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'lookup-trust-'));
    const ca = await testCa('Test CA');
    files = { ca: path.join(dir, 'ca.pem'), leaf: path.join(dir, 'leaf.pem'), missing: path.join(dir, 'missing.pem') };
    await writeFile(files.ca, ca.certificate);
    await writeFile(files.leaf, (await issuedBy(ca, 'PBE000001')).certificate);
  });

  it('when neither is set, then nothing is trusted and each says which setting is missing', () => {
    expect(peppolTrust(loadConfig({}))).toEqual({
      smp: { setting: 'PEPPOL_SMP_CA', problem: 'PEPPOL_SMP_CA is not set (the CAs to check it against)' },
      accessPoint: { setting: 'PEPPOL_AP_CA', problem: 'PEPPOL_AP_CA is not set (the CAs to check it against)' },
    });
  });

  it('when each names a PEM file with a CA, then its certificates are the ones trusted', () => {
    const trust = peppolTrust(loadConfig({ PEPPOL_SMP_CA: files.ca, PEPPOL_AP_CA: files.ca }));
    expect(trust.smp).toMatchObject({
      setting: 'PEPPOL_SMP_CA',
      certificates: [expect.objectContaining({ subject: 'CN=Test CA', ca: true })],
    });
    expect(trust.accessPoint).toMatchObject({
      setting: 'PEPPOL_AP_CA',
      certificates: [expect.objectContaining({ subject: 'CN=Test CA' })],
    });
  });

  it('when a file cannot be read or holds no CA, then start-up fails naming the setting and the file', () => {
    expect(() => peppolTrust(loadConfig({ PEPPOL_SMP_CA: files.missing }))).toThrow(
      `PEPPOL_SMP_CA="${files.missing}": cannot be read`,
    );
    expect(() => peppolTrust(loadConfig({ PEPPOL_AP_CA: files.leaf }))).toThrow(
      `PEPPOL_AP_CA="${files.leaf}": holds no CA certificate (PEM)`,
    );
  });
});
