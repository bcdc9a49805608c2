import fc from 'fast-check';
import { SaxesParser } from 'saxes';

import { convertDocument } from '../../domain/documents/convert';
import { documentInputSchema } from '../../domain/documents/input';
import { isXmlSafe } from '../../domain/text';
import { belgianSeller, validFixtures } from '../fixtures/documents';

const base = validFixtures[0]!.body;
const withLine = (line: Record<string, unknown>) => ({
  ...base,
  lines: [{ description: 'x', tax_rate: 21, quantity: 1, unit_price: '1.00', ...line }],
});
const refusalPaths = (body: unknown) => {
  const parsed = documentInputSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

/**
 * Parses XML strictly (XML 1.0 well-formedness) and returns the text of every
 * element by local name, in order, and every attribute value as `@name`.
 */
function strictTexts(xml: string): Map<string, string[]> {
  const parser = new SaxesParser({ xmlns: true });
  const texts = new Map<string, string[]>();
  const open: { name: string; text: string }[] = [];
  parser.on('opentag', (tag) => {
    open.push({ name: tag.local ?? tag.name, text: '' });
    for (const attribute of Object.values(tag.attributes)) {
      const name = `@${typeof attribute === 'string' ? '' : attribute.local}`;
      texts.set(name, [...(texts.get(name) ?? []), typeof attribute === 'string' ? attribute : attribute.value]);
    }
  });
  parser.on('text', (text) => {
    const current = open.at(-1);
    if (current) current.text += text;
  });
  parser.on('closetag', () => {
    const closed = open.pop()!;
    texts.set(closed.name, [...(texts.get(closed.name) ?? []), closed.text]);
  });
  parser.write(xml).close();
  return texts;
}

describe('decimals are bounded', () => {
  it('when a quantity or price has more than 15 digits before the point or 10 after, then it is refused before any arithmetic', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 100_000 }), fc.constantFrom('quantity', 'unit_price'), (digits, field) => {
        expect(refusalPaths(withLine({ [field]: '9'.repeat(digits) }))).toContain(`lines.0.${field}`);
        expect(refusalPaths(withLine({ [field]: `1.${'1'.repeat(digits)}` }))).toContain(`lines.0.${field}`);
      }),
      { numRuns: 50 },
    );
  });

  it('when a number needs an exponent, as a JSON number or a string, then it is refused rather than read another way', () => {
    for (const value of [1e30, 1e21, 1e-7, '1e30', '1E3', '1e+3', 'Infinity', 'NaN', '0x10', '1_000', '', ' ']) {
      expect(refusalPaths(withLine({ quantity: value }))).toContain('lines.0.quantity');
    }
  });

  it('when a decimal is within bounds, then it is kept exactly as written', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?[1-9]\d{0,14}(\.\d{1,10})?$/), (value) => {
        const parsed = documentInputSchema.parse(withLine({ quantity: value }));
        expect(parsed.lines[0]!.quantity).toBe(value);
      }),
      { numRuns: 200 },
    );
    expect(documentInputSchema.parse(withLine({ unit_price: 0.1 })).lines[0]!.unit_price).toBe('0.1');
  });
});

describe('the UBL is always well-formed and says what the JSON said', () => {
  const textField = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom(
        'a',
        ' ',
        '\t',
        '\r',
        '\n',
        '&',
        '<',
        '>',
        '"',
        "'",
        ';',
        '#',
        '1',
        'x',
        '\u00e9',
        '\u{1F600}',
        '\uD800',
        '\u0001',
      ),
      minLength: 1,
      maxLength: 20,
    }),
  );

  it('when any text is sent, then it is refused naming its field, or the UBL parses strictly and carries it exactly', () => {
    fc.assert(
      fc.property(textField, textField, textField, textField, (number, buyer, description, filename) => {
        const body = {
          ...base,
          number,
          to: { ...(base.to as object), name: buyer },
          lines: [{ description, quantity: 1, unit_price: '10.00', tax_rate: 21 }],
          attachments: [{ filename, mime_type: 'text/csv', content: Buffer.from('a;b\n').toString('base64') }],
        };
        const parsed = documentInputSchema.safeParse(body);
        const unsafe = [number, buyer, description, filename].some((text) => !isXmlSafe(text.trim()));
        if (!parsed.success) {
          const paths = parsed.error.issues.map((issue) => issue.path.join('.'));
          expect(paths.length).toBeGreaterThan(0);
          return;
        }
        expect(unsafe).toBe(false);
        const converted = convertDocument(parsed.data, belgianSeller, ['att_1']);
        if (!converted.ok) return;
        const texts = strictTexts(converted.ubl);
        expect(texts.get('ID')![0]).toBe(number.trim());
        expect(texts.get('Name')).toContain(description.trim());
        expect(texts.get('RegistrationName')).toContain(buyer.trim());
        expect(texts.get('@filename')).toEqual([filename.trim()]);
      }),
      { numRuns: 1_000 },
    );
  });

  it('when text looks like an entity or holds characters XML forbids, then it is escaped or refused', () => {
    const converted = convertDocument(
      documentInputSchema.parse({
        ...base,
        number: 'INV&#49; &amp; <x>',
        note: 'line one\r\nline two',
        attachments: [
          { filename: 'a\tb\r\nc.csv', mime_type: 'text/csv', content: Buffer.from('a;b\n').toString('base64') },
        ],
      }),
      belgianSeller,
      ['att_1'],
    );
    if (!converted.ok) throw new Error('refused');
    const texts = strictTexts(converted.ubl);
    expect(texts.get('ID')![0]).toBe('INV&#49; &amp; <x>');
    expect(texts.get('Note')).toContain('line one\r\nline two');
    expect(texts.get('@filename')).toEqual(['a\tb\r\nc.csv']);
    for (const text of ['\u0001', 'a\uFFFEb', 'lone \uD800 surrogate', 'x\u001Fy']) {
      expect(refusalPaths({ ...base, to: { ...(base.to as object), name: text } })).toContain('to.name');
    }
  });
});
