import { z } from 'zod';

import { documentInputSchema } from '../../domain/documents/input';
import { issueViolations } from '../../domain/documents/shape-rules';
import { fieldsAt, inputMessage } from '../../domain/input-messages';
import { editDistance, nearestWord } from '../../domain/nearest';
import { parseInput } from '../../api/http/validation';
import { validFixtures } from '../fixtures/documents';

const base = validFixtures[0]!.body;
const messagesOf = (schema: z.ZodType, data: unknown) => {
  const parsed = schema.safeParse(data, { error: inputMessage });
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};
const violationsOf = (body: Record<string, unknown>) => {
  const parsed = documentInputSchema.safeParse(body, { error: inputMessage });
  return parsed.success ? [] : parsed.error.issues.flatMap((issue) => issueViolations(issue, documentInputSchema));
};

describe('the nearest known word', () => {
  it('when a letter is missed, doubled, replaced or two are swapped, then that is one edit', () => {
    expect(editDistance('curency', 'currency')).toBe(1);
    expect(editDistance('adddress', 'address')).toBe(1);
    expect(editDistance('numbar', 'number')).toBe(1);
    expect(editDistance('numebr', 'number')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('when a typed word is near a known one, then that one is suggested, the nearest first, case aside', () => {
    expect(nearestWord('curency', ['company_id', 'currency', 'number'])).toBe('currency');
    expect(nearestWord('Tax_Rate', ['tax_category', 'tax_rate'])).toBe('tax_rate');
    expect(nearestWord('taxrate', ['tax_category', 'tax_rate'])).toBe('tax_rate');
  });

  it('when nothing known is near, then nothing is suggested', () => {
    expect(nearestWord('qty', ['quantity', 'unit'])).toBeUndefined();
    expect(nearestWord('colour', [])).toBeUndefined();
    expect(nearestWord(`currency${'y'.repeat(100)}`, ['currency'])).toBeUndefined();
  });
});

describe("zod's findings in the service's own words", () => {
  it('when a required field is absent, then "<field> is required."', () => {
    const { to: _to, ...withoutBuyer } = base;
    expect(messagesOf(documentInputSchema, withoutBuyer)).toEqual(['to is required.']);
  });

  it('when an unknown key is sent, then it is named with the nearest known key of its object', () => {
    expect(messagesOf(documentInputSchema, { ...base, curency: 'EUR' })).toEqual([
      'curency is not a field; did you mean currency?',
    ]);
    expect(
      messagesOf(documentInputSchema, {
        ...base,
        lines: [{ description: 'x', quantity: 1, unit_price: 1, tax_rate: 21, tax_categry: 'S' }],
      }),
    ).toEqual(['lines[0].tax_categry is not a field of lines[0]; did you mean tax_category?']);
    expect(messagesOf(documentInputSchema, { ...base, colour: 'red' })).toEqual(['colour is not a field.']);
  });

  it('when a value has the wrong type, then the sentence says what was expected and what came', () => {
    expect(messagesOf(documentInputSchema, { ...base, to: 'ACME' })).toEqual(['to must be an object, not a string.']);
    expect(
      messagesOf(documentInputSchema, {
        ...base,
        lines: [{ description: 'x', quantity: true, unit_price: 1, tax_rate: 21 }],
      }),
    ).toEqual(['lines[0].quantity must be a number or a string, not a boolean.']);
    expect(messagesOf(z.object({ n: z.number() }), { n: null })).toEqual(['n must be a number, not null.']);
  });

  it('when a value is outside its choices or bounds, then the sentence names them', () => {
    expect(messagesOf(documentInputSchema, { ...base, type: 'bill' })).toEqual([
      'type must be one of "invoice", "credit_note".',
    ]);
    expect(messagesOf(documentInputSchema, { ...base, lines: [] })).toEqual(['lines needs at least one entry.']);
    expect(messagesOf(z.object({ name: z.string().min(1).max(3) }), { name: '' })).toEqual(['name must not be empty.']);
    expect(messagesOf(z.object({ name: z.string().max(3) }), { name: 'long' })).toEqual([
      'name must have at most 3 characters.',
    ]);
    expect(messagesOf(z.object({ limit: z.number().min(1) }), { limit: 0 })).toEqual(['limit must be at least 1.']);
  });

  it('when the body itself is not an object, then the sentence names the body', () => {
    expect(messagesOf(documentInputSchema, 'x')).toEqual(['body must be an object, not a string.']);
  });

  it('when a schema states its own message, then that one is kept', () => {
    expect(messagesOf(documentInputSchema, { ...base, issue_date: '18-11-2026' })).toContain(
      'expected a date YYYY-MM-DD',
    );
  });
});

describe('unknown fields, one problem each', () => {
  it('when the schema is walked to a path, then the fields of the object there are found through defaults, arrays and nesting', () => {
    expect(fieldsAt(documentInputSchema, [])).toContain('currency');
    expect(fieldsAt(documentInputSchema, ['from'])).toContain('address');
    expect(fieldsAt(documentInputSchema, ['to', 'address'])).toEqual(['street', 'city', 'postal_code', 'country']);
    expect(fieldsAt(documentInputSchema, ['lines', 3])).toContain('tax_rate');
    expect(fieldsAt(documentInputSchema, ['number'])).toEqual([]);
  });

  it('when a body has several unknown keys, then each is its own problem with its own suggestion', () => {
    expect(
      violationsOf({ ...base, curency: 'EUR', numbr: 'x', colour: 'red' }).map(
        ({ path, message }) => `${path}: ${message}`,
      ),
    ).toEqual([
      'curency: curency is not a field; did you mean currency?',
      'numbr: numbr is not a field; did you mean number?',
      'colour: colour is not a field.',
    ]);
    const schema = z.object({ name: z.string(), address: z.object({ city: z.string() }).strict() }).strict();
    let thrown: unknown;
    try {
      parseInput(schema, { name: 'x', nmae: 'y', address: { city: 'Gent', citty: 'Gent' } }, 'body');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({
      code: 'invalid_field',
      options: {
        param: 'address.citty',
        details: {
          errors: [
            {
              code: 'invalid_field',
              param: 'address.citty',
              message: 'address.citty is not a field of address; did you mean city?',
            },
            { code: 'invalid_field', param: 'nmae', message: 'nmae is not a field; did you mean name?' },
          ],
        },
      },
    });
  });
});

describe('shape problems of a document as violations', () => {
  it('when a field has an official rule, then the violation names it; the message names the field', () => {
    const { number: _number, ...withoutNumber } = base;
    expect(
      violationsOf({
        ...withoutNumber,
        issue_date: '2026-02-30',
        lines: [{ description: 'x', quantity: 'lots', unit_price: 1, tax_rate: 21 }],
      }),
    ).toEqual([
      { path: 'number', rule: 'BR-02', message: 'number is required.' },
      { path: 'issue_date', rule: 'BR-03', message: 'issue_date: not a calendar date' },
      {
        path: 'lines[0].quantity',
        rule: 'BR-22',
        message: expect.stringMatching(/^lines\[0\]\.quantity: expected a decimal number/),
      },
    ]);
    expect(violationsOf({ ...base, lines: [] })).toEqual([
      { path: 'lines', rule: 'BR-16', message: 'lines needs at least one entry.' },
    ]);
  });

  it('when the field has no rule of its own or is unknown, then rule is null and the path is the field', () => {
    expect(violationsOf({ ...base, note: 7 })).toEqual([
      { path: 'note', rule: null, message: 'note must be a string, not a number.' },
    ]);
    expect(violationsOf({ ...base, to: { ...(base.to as object), adress: {} } })).toEqual([
      { path: 'to.adress', rule: null, message: 'to.adress is not a field of to; did you mean address?' },
    ]);
  });
});
