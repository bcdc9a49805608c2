import { cookieValue, hashToken, isToken, newToken, setCookie, tokenMatches } from '../../domain/sessions';

describe('web app session tokens and cookies', () => {
  it('when a token is made, then it is 43 base62 characters, and only its own hash matches it', () => {
    const token = newToken();
    expect(isToken(token)).toBe(true);
    expect(tokenMatches(token, hashToken(token))).toBe(true);
    expect(tokenMatches(newToken(), hashToken(token))).toBe(false);
    expect(tokenMatches(undefined, hashToken(token))).toBe(false);
    expect(tokenMatches(`${token}x`, hashToken(token))).toBe(false);
  });

  it('when a Cookie header is read, then the named cookie’s value comes back, and a name that only ends like it does not', () => {
    const header = 'other=1; xeinvoice_session=nope; einvoice_session=abc; einvoice_csrf=def';
    expect(cookieValue(header, 'einvoice_session')).toBe('abc');
    expect(cookieValue(header, 'einvoice_csrf')).toBe('def');
    expect(cookieValue(header, 'missing')).toBeUndefined();
    expect(cookieValue(undefined, 'einvoice_session')).toBeUndefined();
  });

  it('when a cookie is set, then it is host-only for the whole origin, SameSite=Lax, HttpOnly and Secure as asked; a maximum age of 0 removes it', () => {
    expect(setCookie('einvoice_session', 'abc', { maxAgeMs: 3_600_000, secure: true, httpOnly: true })).toBe(
      'einvoice_session=abc; Path=/; Max-Age=3600; SameSite=Lax; HttpOnly; Secure',
    );
    expect(setCookie('einvoice_csrf', '', { maxAgeMs: 0, secure: false, httpOnly: false })).toBe(
      'einvoice_csrf=; Path=/; Max-Age=0; SameSite=Lax',
    );
  });
});
