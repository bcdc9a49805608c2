import fc from 'fast-check';

/**
 * Values for a JSON Schema (the subset the API's OpenAPI 3.1 description
 * uses), for schema-driven fuzzing: `valid` follows the schema, so the
 * server should accept the shape; `wild` mixes in anything JSON can be, so
 * the server must refuse it in a documented way.
 */

type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

function resolve(schema: Schema, components: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.split('/').at(-1)!;
  return resolve((components[name] as Schema | undefined) ?? {}, components);
}

const LOOKAHEAD = /\(\?=[^()]*\)/g;

/**
 * Strings matching an ECMA-262 pattern. fast-check draws from no lookahead
 * (the email pattern bounds its local part with one): such values come from
 * the pattern without its lookaheads and are kept where the whole matches.
 */
export function matching(pattern: string): fc.Arbitrary<string> {
  const whole = new RegExp(pattern);
  const withoutLookaheads = pattern.replace(LOOKAHEAD, '');
  const drawn = fc.stringMatching(new RegExp(withoutLookaheads));
  return withoutLookaheads === pattern ? drawn : drawn.filter((value) => whole.test(value));
}

function stringFor(schema: Schema): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, 60) : 30;
  if (typeof schema.pattern === 'string') {
    try {
      return matching(schema.pattern).filter(
        (value) =>
          value.length >= minLength &&
          value.length <= (typeof schema.maxLength === 'number' ? schema.maxLength : Infinity),
      );
    } catch {
      // A pattern fast-check cannot generate from: plain strings instead.
    }
  }
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'uri':
      return fc.webUrl();
    default:
      return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
  }
}

export function valid(schema: Schema, components: Schema, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, components);
  const choices = (resolved.anyOf ?? resolved.oneOf) as Schema[] | undefined;
  if (choices && resolved.type === 'object') {
    // Choices that add requirements to the object beside them (`one of these fields is required`): its fields, each choice's required ones.
    const { anyOf: _any, oneOf: _one, ...base } = resolved;
    const required = (base.required ?? []) as string[];
    return fc.oneof(
      ...choices.map((choice) =>
        valid({ ...base, required: [...required, ...((choice.required ?? []) as string[])] }, components, depth),
      ),
    );
  }
  if (choices) return fc.oneof(...choices.map((choice) => valid(choice, components, depth)));
  if (resolved.const !== undefined) return fc.constant(resolved.const);
  const types = Array.isArray(resolved.type) ? (resolved.type as string[]) : [resolved.type as string | undefined];
  if (types.length > 1) return fc.oneof(...types.map((type) => valid({ ...resolved, type }, components, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1000,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 1000,
      });
    case 'number':
      return fc.double({
        min: typeof resolved.minimum === 'number' ? resolved.minimum : -1e6,
        max: typeof resolved.maximum === 'number' ? resolved.maximum : 1e6,
        noNaN: true,
      });
    case 'string':
      return stringFor(resolved);
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const minLength = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
      const maxLength = Math.min(typeof resolved.maxItems === 'number' ? resolved.maxItems : 3, minLength + 3);
      return fc.array(valid((resolved.items as Schema | undefined) ?? {}, components, depth + 1), {
        minLength,
        maxLength,
      });
    }
    case 'object': {
      const properties = (resolved.properties ?? {}) as Record<string, Schema>;
      const required = new Set((resolved.required ?? []) as string[]);
      if (depth >= MAX_DEPTH) return fc.constant({});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) record[name] = valid(property, components, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((name) => name in record) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly the schema's own values, sometimes anything at all, sometimes the schema's with one property replaced by anything. */
export function wild(schema: Schema, components: Schema): fc.Arbitrary<unknown> {
  const shaped = valid(schema, components);
  return fc.oneof(
    { arbitrary: shaped, weight: 3 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
    {
      arbitrary: fc
        .tuple(shaped, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
        .map(([value, key, replacement]) =>
          value !== null && typeof value === 'object' && !Array.isArray(value)
            ? { ...value, [Object.keys(value)[0] ?? key]: replacement }
            : value,
        ),
      weight: 1,
    },
  );
}
