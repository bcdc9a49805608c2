import { z } from 'zod';

import { documentInputSchema } from '../../domain/documents/input';
import { termJsonPath, TERMS } from '../../domain/terms/table';

/**
 * The JSON input and the term table say the same: every EN 16931 term the table has a client post is a field of
 * the input schema at the term's JSON path, and that field's description (the OpenAPI one) names the term by its
 * BT id, taken from the table. Adding a row without its field, or a field in another place, fails here.
 */

type Schema = z.ZodType;

/** The schema itself and what it wraps (optional, default, a pipe's input), outermost first. */
function layers(schema: Schema): Schema[] {
  const def = (schema as unknown as { def: { type: string; innerType?: Schema; in?: Schema } }).def;
  const inner =
    def.type === 'optional' || def.type === 'default' || def.type === 'nullable'
      ? def.innerType
      : def.type === 'pipe'
        ? def.in
        : undefined;
  return inner ? [schema, ...layers(inner)] : [schema];
}

/** The field at an input path (`lines[].allowances[].amount`), through objects and arrays. */
function fieldAt(schema: Schema, path: string): Schema | undefined {
  return path.split('.').reduce<Schema | undefined>((at, step) => {
    if (!at) return undefined;
    const object = layers(at).find((layer): layer is z.ZodObject => layer instanceof z.ZodObject);
    const field = object?.shape[step.replace(/\[\]$/, '')] as Schema | undefined;
    if (!field || !step.endsWith('[]')) return field;
    return layers(field).find((layer): layer is z.ZodArray => layer instanceof z.ZodArray)?.element as
      Schema | undefined;
  }, schema);
}

const descriptionOf = (field: Schema) =>
  layers(field)
    .map((layer) => z.globalRegistry.get(layer)?.description)
    .find((text) => text !== undefined);

const posted = TERMS.filter((term) => !term.computed && !term.readOnly);

describe('the input schema and the term table', () => {
  it.each(posted.map((term) => [term.id, termJsonPath(term), term] as const))(
    'when %s is posted, then the input has a field at %s and its description names the term',
    (id, path) => {
      const field = fieldAt(documentInputSchema, path);
      expect(field).toBeDefined();
      expect(descriptionOf(field!)).toMatch(new RegExp(`(^|[/ ])${id.replace(/-/g, '\\-')}(?![\\d-])`));
    },
  );
});
