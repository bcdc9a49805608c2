import { createHmac } from 'node:crypto';

import { newSecretKey, SecretBox } from '../../domain/secret-box';
import { signatureHeaders, subscribes, verifySignatureV2 } from '../../domain/webhooks';

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
