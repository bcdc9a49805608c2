import { signatureHeaders } from '../../../domain/webhooks';
import { verifyWebhook, WebhookVerificationError, type VerifyWebhookInput } from '../../../sdk/src';

/** Signatures made by the service's own signing code (domain/webhooks.ts), checked by the SDK's verifyWebhook. */

const NEW = 'whsec_NewNewNewNewNewNewNewNewNewNewNewNewNewN';
const OLD = 'whsec_OldOldOldOldOldOldOldOldOldOldOldOldOldO';
const body = JSON.stringify({
  id: 'evt_1',
  type: 'document.delivered',
  created_at: '2026-11-25T22:00:00.000Z',
  data: { document_id: 'doc_1', status: 'delivered', note: 'naïve € ✓' },
});
const signedAt = 1_795_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

/** What a receiver sees: the service's headers on a Node request (lower-case names). */
function delivered(secretsNewestFirst: string[], timestamp = signedAt): Record<string, string> {
  return Object.fromEntries(
    Object.entries(signatureHeaders(body, timestamp, secretsNewestFirst)).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );
}

function failure(input: VerifyWebhookInput): string {
  try {
    verifyWebhook(input);
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
  throw new Error('verified');
}

describe('verifyWebhook, against the service signatures', () => {
  it('when the V2 signature of one secret is checked on the raw body (string or bytes), then the parsed event is returned', () => {
    const headers = delivered([NEW]);
    expect(verifyWebhook({ rawBody: body, headers, secrets: NEW, now: at(signedAt + 10) })).toEqual(JSON.parse(body));
    expect(
      verifyWebhook({
        rawBody: Buffer.from(body, 'utf8'),
        headers: new Headers(headers),
        secrets: [NEW],
        now: at(signedAt),
      }).type,
    ).toBe('document.delivered');
  });

  it('when a rotation overlaps (two v1= signatures), then the old secret alone, the new one alone, or both verify', () => {
    const headers = delivered([NEW, OLD]);
    for (const secrets of [[OLD], [NEW], [NEW, OLD], [OLD, NEW]]) {
      expect(verifyWebhook({ rawBody: body, headers, secrets, now: at(signedAt) }).id).toBe('evt_1');
    }
  });

  it('when the body, the secret or the timestamp is wrong, then it throws saying why', () => {
    const headers = delivered([NEW]);
    expect(failure({ rawBody: body.replace('doc_1', 'doc_2'), headers, secrets: NEW, now: at(signedAt) })).toBe(
      'signature_mismatch',
    );
    expect(failure({ rawBody: body, headers, secrets: OLD, now: at(signedAt) })).toBe('signature_mismatch');
    expect(failure({ rawBody: body, headers, secrets: NEW, now: at(signedAt + 301) })).toBe(
      'timestamp_outside_tolerance',
    );
    expect(failure({ rawBody: body, headers, secrets: NEW, now: at(signedAt - 301) })).toBe(
      'timestamp_outside_tolerance',
    );
    expect(
      verifyWebhook({ rawBody: body, headers, secrets: NEW, now: at(signedAt + 301), toleranceSeconds: 600 }).id,
    ).toBe('evt_1');
    // The timestamp is signed: moving it breaks the signature.
    const moved = {
      ...headers,
      'x-peppol-signature-v2': headers['x-peppol-signature-v2']!.replace(`t=${signedAt}`, `t=${signedAt + 1}`),
    };
    expect(failure({ rawBody: body, headers: moved, secrets: NEW, now: at(signedAt) })).toBe('signature_mismatch');
  });

  it('when headers are missing or malformed, or no secret is given, then it throws saying so', () => {
    expect(failure({ rawBody: body, headers: {}, secrets: NEW })).toBe('missing_signature');
    expect(failure({ rawBody: body, headers: { 'X-Peppol-Signature-V2': 'v1=abc' }, secrets: NEW })).toBe(
      'malformed_signature',
    );
    expect(
      failure({
        rawBody: body,
        headers: { 'X-Peppol-Signature-V2': `t=${signedAt},v1=zz` },
        secrets: NEW,
        now: at(signedAt),
      }),
    ).toBe('signature_mismatch');
    expect(failure({ rawBody: body, headers: delivered([NEW]), secrets: [] })).toBe('no_secrets');
  });

  it('when only the legacy signature came, then it verifies only if the caller opts in, with any of the secrets', () => {
    const { 'x-peppol-signature': legacy } = delivered([NEW, OLD]);
    const headers = { 'X-Peppol-Signature': legacy! };
    expect(failure({ rawBody: body, headers, secrets: NEW })).toBe('missing_signature');
    expect(verifyWebhook({ rawBody: body, headers, secrets: [OLD, NEW], legacy: true }).id).toBe('evt_1');
    // The service signs the legacy header with the newest secret only.
    expect(failure({ rawBody: body, headers, secrets: OLD, legacy: true })).toBe('signature_mismatch');
  });

  it('when the signature is good but the body is not JSON, then invalid_json', () => {
    const text = 'not json';
    const headers = Object.fromEntries(Object.entries(signatureHeaders(text, signedAt, [NEW])));
    expect(failure({ rawBody: text, headers, secrets: NEW, now: at(signedAt) })).toBe('invalid_json');
  });
});
