import { createHmac } from 'node:crypto';

import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { isForbiddenTarget, signatureHeaders, subscribes, verifySignatureV2 } from '../../domain/webhooks';

const hmac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('hex');

describe('webhook signatures', () => {
  const body = '{"id":"evt_1","type":"document.delivered"}';

  it('when signed with two active secrets, then V2 has one v1= each, newest first, and the legacy header uses the newest alone', () => {
    const headers = signatureHeaders(body, 1_795_400_000, ['whsec_new', 'whsec_old']);
    expect(headers).toEqual({
      'X-Peppol-Signature-V2': `t=1795400000,v1=${hmac('whsec_new', `1795400000.${body}`)},v1=${hmac('whsec_old', `1795400000.${body}`)}`,
      'X-Peppol-Signature': hmac('whsec_new', body),
      'X-Peppol-Timestamp': '1795400000',
    });
  });

  it('when a receiver verifies, then any active secret passes, a changed body or a stale timestamp does not', () => {
    const header = signatureHeaders(body, 1_795_400_000, ['whsec_new', 'whsec_old'])['X-Peppol-Signature-V2'];
    expect(verifySignatureV2(header, body, 'whsec_old', 1_795_400_100)).toBe(true);
    expect(verifySignatureV2(header, `${body} `, 'whsec_old', 1_795_400_100)).toBe(false);
    expect(verifySignatureV2(header, body, 'whsec_other', 1_795_400_100)).toBe(false);
    expect(verifySignatureV2(header, body, 'whsec_new', 1_795_400_000 + 301)).toBe(false);
  });

  it('when subscribing, then * takes every kind and a list only its own', () => {
    expect(subscribes(['*'], 'credits.low')).toBe(true);
    expect(subscribes(['document.failed'], 'document.delivered')).toBe(false);
  });
});

describe('webhook targets', () => {
  it.each(['127.0.0.1', '10.2.3.4', '172.16.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:10.0.0.1', '::ffff:a00:1', '64:ff9b::a9fe:a9fe', '224.0.0.1', 'not an address'])(
    'when the address is %s, then no webhook may reach it',
    (address) => expect(isForbiddenTarget(address)).toBe(true),
  );

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])('when the address is public (%s), then it is allowed', (address) => {
    expect(isForbiddenTarget(address)).toBe(false);
  });
});

describe('secrets at rest', () => {
  it('when a secret is sealed, then only the same key opens it, and a changed byte fails', () => {
    const box = new SecretBox(newSecretKey());
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(() => new SecretBox(newSecretKey()).open(sealed)).toThrow();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
