import { peppolIdProblem } from '../../domain/peppol/ids';

describe('Peppol participant ids', () => {
  it.each([
    '0208:0123456749',
    '0088:5790000435975',
    '0192:974760673',
    '0007:5560360793',
    '0184:12345678',
    '0151:51824753556',
    '0199:5493001KJTIIGC8Y1R12',
    '0002:732829320',
    '0183:CHE109322551',
    '0211:IT12345678903',
    '9925:BE0123456749',
    '9930:DE123456789',
    '0204:04011000-12345-03',
    '9933:123456783',
  ])('%s is accepted', (id) => {
    expect(peppolIdProblem(id)).toBeUndefined();
  });

  it.each([
    ['0208-0123456749', /expected scheme:id/],
    ['0208:', /expected scheme:id/],
    ['208:0123456749', /expected scheme:id/],
    ['0193:0123456749', /not a current Peppol EAS code/],
    ['1234:anything', /not a current Peppol EAS code/],
    ['0208:0123456748', /check digits/],
    ['0208:2123456749', /expects 10 digits/],
    ['0088:5790000435976', /check digits/],
    ['0192:974760674', /check digits/],
    ['0007:5560360794', /check digits/],
    ['0151:51824753557', /check digits/],
    ['0199:5493001KJTIIGC8Y1R13', /check digits/],
    ['9925:BE0123456748', /check digits/],
    ['9930:FR123456789', /DE VAT number/],
    ['0184:DK12345678', /8-digit CVR/],
    // Greece's scheme takes the bare TIN (GR-R-009/010), not the VAT number with its EL/GR prefix.
    ['9933:EL123456783', /9-digit Greek TIN/],
    ['9933:123456784', /check digits/],
  ])('%s is refused', (id, reason) => {
    expect(peppolIdProblem(id)).toMatch(reason);
  });

  it.each([
    ['NUL', '0060:12\u000034'],
    ['U+0001', '0060:12\u000134'],
    ['U+FFFE', '0060:12\uFFFE34'],
    ['a lone surrogate', '0060:12\uD80034'],
    ['a letter outside ASCII', '0060:12é34'],
    ['<', '0060:12<34'],
    ['>', '0060:12>34'],
    ['&', '0060:12&34'],
    ['"', '0060:12"34'],
    ["'", "0060:12'34"],
  ])(
    'an identifier of a scheme without a format holding %s is refused (Policy for use of Identifiers, POLICY 1)',
    (_what, id) => {
      expect(peppolIdProblem(id)).toMatch(/only printable ASCII characters other than space and < > & " '/);
    },
  );

  it('an identifier of a scheme without a format may hold any other printable ASCII character', () => {
    expect(peppolIdProblem('0060:AZaz09!#$%()*+,-./:;=?@[\\]^_`{|}~')).toBeUndefined();
  });

  it('an identifier over 130 characters is refused', () => {
    expect(peppolIdProblem(`0060:${'1'.repeat(131)}`)).toMatch(/longer than 130/);
  });
});
