import { createHash } from 'node:crypto';
import vm from 'node:vm';

import {
  base32,
  PRODUCTION_SML_ZONE,
  smlDnsName,
  smpRecord,
  smpUrlFromRegexp,
  type NaptrRecord,
} from '../../domain/peppol/sml';

/** The SML step against the reference's worked example (part C.6) and its other vectors (C.2, C.6). */
describe('the SML DNS name of a participant', () => {
  it('reproduces the worked example of C.6: 0208:0123456749 in the production, test and legacy EC zones', () => {
    const digest = createHash('sha256').update('0208:0123456749').digest();
    expect(digest.toString('hex')).toBe('3c16d8a88322777255b7136085c7a6bf0ec1b78bb4b5b16669c331c61d7b7ad6');
    expect(base32(digest)).toBe('hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla');

    expect(smlDnsName('0208:0123456749', PRODUCTION_SML_ZONE)).toBe(
      'hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.participant.sml.prod.tech.peppol.org',
    );
    expect(smlDnsName('0208:0123456749', 'participant.sml.test.tech.peppol.org')).toBe(
      'hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.participant.sml.test.tech.peppol.org',
    );
    expect(smlDnsName('0208:0123456749', 'edelivery.tech.ec.europa.eu')).toBe(
      'hqlnrkedej3xevnxcnqilr5gx4hmdn4lws23cztjymy4mhl3plla.iso6523-actorid-upis.edelivery.tech.ec.europa.eu',
    );
  });

  it('hashes the value only, not the scheme (the common mistake of C.6 gives another name)', () => {
    const mistaken = base32(createHash('sha256').update('iso6523-actorid-upis::0208:0123456749').digest());
    expect(mistaken).toBe('pa5ttzogqcmds65yixgo3m2qdn3ikb62pd657ekej22fbutinb2q');
    expect(smlDnsName('0208:0123456749', PRODUCTION_SML_ZONE)).not.toContain(mistaken);
  });

  it.each([
    ['9915:test', 'eh5boavaktmbgzyh2a63dz4qov33fvp5nsdvqklucfraayoodw6a'],
    ['0088:1234567890123', 'sjsyvccmqyjxk3weuapffq4x3umcrf4qryherj4vovhmonh7gccq'],
    ['0208:0677424046', 'yrudm3nqrm76uobzh4griobewmqd4mx574cfdtm75zphrex4ydya'],
    ['0010:5798000000001', 'xukhfqabqziki3ykvr2fhr4snfa3pf5vpq6k4tonv3lmvsy5arvq'],
    // POLICY 7: participant values are case-insensitive, so both spellings hash alike.
    ['0088:123abc', 'y7dzfxaf3d4cjz4kcgrxtec6twvcga4ky7zwa5boif6mswd4tdrq'],
    ['0088:123ABC', 'y7dzfxaf3d4cjz4kcgrxtec6twvcga4ky7zwa5boif6mswd4tdrq'],
  ])('reproduces the reference vector for %s', (value, hash) => {
    expect(smlDnsName(value, 'zone.example')).toBe(`${hash}.iso6523-actorid-upis.zone.example`);
  });

  it.each([
    ['', ''],
    ['f', 'my'],
    ['fo', 'mzxq'],
    ['foo', 'mzxw6'],
    ['foob', 'mzxw6yq'],
    ['fooba', 'mzxw6ytb'],
    ['foobar', 'mzxw6ytboi'],
  ])('encodes Base32 as RFC 4648 does, lower-case and unpadded: %j', (text, encoded) => {
    expect(base32(Buffer.from(text))).toBe(encoded);
  });
});

describe('the SMP URL from NAPTR records', () => {
  const record = (fields: Partial<NaptrRecord>): NaptrRecord => ({
    order: 100,
    preference: 10,
    flags: 'U',
    service: 'Meta:SMP',
    regexp: '!.*!https://smp.example.com!',
    replacement: '',
    ...fields,
  });

  it('when several records are published, then the U / Meta:SMP one with the lowest order, then preference, is chosen', () => {
    const chosen = record({
      order: 10,
      preference: 5,
      flags: 'u',
      service: 'meta:smp',
      regexp: '!.*!https://first.example!',
    });
    const records = [
      record({ order: 10, preference: 20 }),
      record({ order: 1, service: 'Meta:Other' }),
      record({ order: 1, flags: 'S' }),
      chosen,
      record({ order: 50 }),
    ];
    expect(smpRecord(records)).toBe(chosen);
    expect(smpRecord([record({ service: 'Meta:Other' })])).toBeUndefined();
  });

  it.each([
    ['!.*!https://smp.example.com!', 'https://smp.example.com'],
    ['!^.*$!https://test.erechnung.gv.at/smp/!', 'https://test.erechnung.gv.at/smp'],
    ['#.*#http://127.0.0.1:8088#', 'http://127.0.0.1:8088'],
    // The delimiter escaped inside the URL, and the flag RFC 3402 allows.
    ['!.*!https://smp.example.com/a\\!b!', 'https://smp.example.com/a!b'],
    ['!^.*$!https://smp.example.com!i', 'https://smp.example.com'],
  ])('when the regexp is %s, then the SMP URL is %s', (regexp, url) => {
    expect(smpUrlFromRegexp(regexp)).toEqual({ url });
  });

  it.each([
    ['', /not of the form/],
    ['!.*!https://smp.example.com', /not of the form/],
    ['!.*!https://smp.example.com!x', /not of the form/],
    ['!(!https://smp.example.com!', /not of the form/],
    ['!^nothing$!https://smp.example.com!', /not of the form/],
    ['!HQLN.*!https://smp.example.com!i', /not of the form/],
    // A pattern the SML never publishes is not run, however harmless; nor is a backreference expanded.
    ['!^([a-z0-9]+)\\..*$!https://smp.example.com/\\1!', /not of the form/],
    ['!.*!https://smp.example.com/\\1!', /not of the form/],
    ['!.*!smp.example.com!', /not a URL/],
    ['!.*!ftp://smp.example.com!', /not an http\(s\) URL/],
  ])('when the regexp is %j, then no URL, and the problem is named', (regexp, problem) => {
    const result = smpUrlFromRegexp(regexp);
    expect(result).not.toHaveProperty('url');
    expect((result as { problem: string }).problem).toMatch(problem);
  });

  it('when the regexp would backtrack catastrophically on the name, then it is refused at once, never run', () => {
    const hostile = '!^(([a-z0-9]+)+)+\\.x$!https://smp.example.com!';
    // The call runs under a time limit, so a regexp engine stuck on it fails the test instead of hanging it.
    const result = vm.runInNewContext(
      'refuse()',
      { refuse: () => smpUrlFromRegexp(hostile) },
      { timeout: 1_000 },
    ) as ReturnType<typeof smpUrlFromRegexp>;
    expect(result).toEqual({ problem: expect.stringMatching(/is not of the form !\.\*!URL! or !\^\.\*\$!URL!/) });
  }, 5_000);
});
