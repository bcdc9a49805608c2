import { escapeForTerminal, isSingleLineText } from '../../domain/text';

describe('text printed on a terminal', () => {
  it.each([
    ['a line feed', 'Acme\nwsp_forged  approved', 'Acme\\nwsp_forged  approved'],
    ['a carriage return', 'Acme\rForged', 'Acme\\u000dForged'],
    ['a tab', 'a\tb', 'a\\u0009b'],
    ['an escape sequence', 'a\u001b[2Jb', 'a\\u001b[2Jb'],
    ['NUL and DEL', 'a\u0000b\u007fc', 'a\\u0000b\\u007fc'],
    ['a C1 control (CSI)', 'a\u009bb', 'a\\u009bb'],
    ['the line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['a bidi override', 'Acme \u202eVB', 'Acme \\u202eVB'],
    [
      'the bidi marks (right-to-left, left-to-right, Arabic letter)',
      'Acme\u200f BV\u200e \u061cx',
      'Acme\\u200f BV\\u200e \\u061cx',
    ],
    [
      'every bidi embedding, override and isolate',
      '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069',
      '\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069',
    ],
  ])('when a value holds %s, then it is escaped', (_what, text, escaped) => {
    expect(escapeForTerminal(text)).toBe(escaped);
  });

  it('when a value holds only printable text, whatever its script, then it is printed as it is', () => {
    for (const text of ['Acme BV (0123.456.749)', 'Société Générale', 'Ελληνικά', 'שלום', 'a\\nb "quoted"'])
      expect(escapeForTerminal(text)).toBe(text);
  });

  it('escaping twice changes nothing, so JSON text passes through it unharmed', () => {
    const json = JSON.stringify({ name: 'Acme\r\nBV \u202e' });
    expect(escapeForTerminal(escapeForTerminal(json))).toBe(escapeForTerminal(json));
    expect(JSON.parse(escapeForTerminal(json))).toEqual({ name: 'Acme\r\nBV \u202e' });
  });
});

describe('one-line text', () => {
  it('takes printable text and tab', () => {
    expect(isSingleLineText('Acme BV\tBrussels')).toBe(true);
  });

  it.each([
    ['LF', 'a\nb'],
    ['CR', 'a\rb'],
    ['NUL', 'a\u0000b'],
    ['an escape', 'a\u001bb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a line separator', 'a\u2028b'],
    ['U+FFFE', 'a\ufffeb'],
    ['an unpaired surrogate', 'a\ud800b'],
  ])('refuses %s', (_what, text) => {
    expect(isSingleLineText(text)).toBe(false);
  });
});
