import fc from 'fast-check';

import { EMAIL_ADDRESS, emailAddress, xmlText } from '../../domain/fields';
import { WRITTEN_IBAN, isValidIban } from '../../domain/iban';
import { PEPPOL_ID_PATTERN, peppolIdProblem } from '../../domain/peppol/ids';
import { isSingleLineText, isXmlSafe, SINGLE_LINE_TEXT, XML_TEXT } from '../../domain/text';
import { matching } from '../support/schema-arbitrary';

/**
 * The patterns the OpenAPI description states are the server's own checks:
 * values drawn from a stated pattern pass the runtime check (a client that
 * follows the description is not refused), and the characters the runtime
 * refuses are outside the pattern (the description says what is refused).
 */

const RUNS = 300;
const sample = (pattern: string) => fc.sample(matching(pattern), { numRuns: RUNS, seed: 21 });

describe('fields described as the server checks them', () => {
  it('free text: every value the stated pattern allows is taken, trimmed', () => {
    const field = xmlText(1000);
    const refused = sample(XML_TEXT.source).filter((value) => !field.safeParse(value).success);
    expect(refused).toEqual([]);
  });

  it.each([
    ['a control character', 'Acme\u0001BV'],
    ['U+FFFE', 'Acme\ufffe'],
    ['U+FFFF', '\uffffAcme'],
    ['an unpaired surrogate', 'Acme \ud800'],
    ['only white space', ' \t\n '],
    ['nothing', ''],
  ])('free text with %s is refused, by the pattern and the runtime alike', (_what, value) => {
    expect(XML_TEXT.test(value)).toBe(false);
    expect(xmlText(200).safeParse(value).success).toBe(false);
  });

  it('free text keeps tab, line breaks and characters outside the BMP (a surrogate pair is one character)', () => {
    const value = 'Société\tGénérale\r\n😀 𝔄';
    expect(XML_TEXT.test(value)).toBe(true);
    expect(xmlText(200).safeParse(value).success).toBe(true);
    expect(isXmlSafe(value)).toBe(true);
  });

  it('free text is bounded in characters, as JSON Schema counts maxLength, not in UTF-16 units', () => {
    expect(xmlText(3).safeParse('😀😀😀').success).toBe(true);
    expect(xmlText(3).safeParse('😀😀😀😀').success).toBe(false);
  });

  it('one-line text: what the pattern allows is one line, and a line break is outside it', () => {
    expect(sample(SINGLE_LINE_TEXT.source).filter((value) => !isSingleLineText(value))).toEqual([]);
    for (const value of ['a\nb', 'a\u2028b', 'a\u0085b', ' ']) expect(SINGLE_LINE_TEXT.test(value)).toBe(false);
  });

  it('email: every address the stated pattern allows is taken; what it refuses is refused', () => {
    expect(
      sample(EMAIL_ADDRESS.source).filter((value) => value.length <= 254 && !emailAddress.safeParse(value).success),
    ).toEqual([]);
    const tooLong = [`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.example.com`];
    for (const value of [
      'a..b@example.com',
      '.a@example.com',
      'a@example',
      'a@-example.com',
      'a b@example.com',
      'a@example.c0m',
      ...tooLong,
    ]) {
      expect(EMAIL_ADDRESS.test(value)).toBe(false);
      expect([value, emailAddress.safeParse(value).success]).toEqual([value, false]);
    }
    expect(emailAddress.safeParse("o'brien+invoices@mail.example-shop.co.uk").success).toBe(true);
    expect(emailAddress.safeParse(`${'a'.repeat(64)}@${'b'.repeat(63)}.example.com`).success).toBe(true);
  });

  it('Peppol ids: every id the stated pattern allows is taken unless its check digits are wrong, which the description says', () => {
    const refused = sample(PEPPOL_ID_PATTERN)
      .map((value) => [value, peppolIdProblem(value)])
      .filter(([, problem]) => problem !== undefined && !/check digits/.test(problem));
    expect(refused).toEqual([]);
    for (const retired of ['0193:0123456749', '0208:12345', '9925:NL0123456749'])
      expect(new RegExp(PEPPOL_ID_PATTERN).test(retired)).toBe(false);
  });

  it('IBANs: every IBAN written as the pattern allows has the structure the server checks (check digits aside)', () => {
    const withCheck = (value: string) => {
      const body = value.replace(/\s+/g, '').toUpperCase();
      for (let check = 2; check <= 98; check += 1) {
        const candidate = `${body.slice(0, 2)}${String(check).padStart(2, '0')}${body.slice(4)}`;
        if (isValidIban(candidate)) return true;
      }
      return false;
    };
    expect(sample(WRITTEN_IBAN.source).filter((value) => !withCheck(value))).toEqual([]);
  });
});
