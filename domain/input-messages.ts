import type { z } from 'zod';

import { nearestWord } from './nearest';

/**
 * The service's own sentences for what a zod schema refuses, instead of zod's
 * generic texts ("Invalid input: expected object, received undefined"). Used
 * as the error map of every parse of client input (`safeParse(data, { error:
 * inputMessage })`); a message a schema states itself still wins over it.
 * Each sentence starts with the JSON path of the field (or `body` for the
 * whole), so it can stand alone in a list of problems.
 */

type RawIssue = z.core.$ZodRawIssue;

export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

/** Our sentences name their field already; a schema's own message, a fragment ("expected a date YYYY-MM-DD"), gets it put before it. */
export const namingField = (message: string, field: string) =>
  message.startsWith(`${field} `) ? message : `${field}: ${message}`;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'not a finite number';
  return `a ${typeof value}`;
}

const EXPECTED: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  date: 'a date',
};

interface SchemaNode {
  _zod?: {
    def?: {
      type?: string;
      shape?: Record<string, unknown>;
      innerType?: unknown;
      in?: unknown;
      element?: unknown;
      valueType?: unknown;
      options?: unknown[];
    };
  };
}

/** Wrappers that hold the schema of the value itself: optional, default, a pipe's input and their kin. */
function unwrapped(schema: unknown): SchemaNode | undefined {
  let node = schema as SchemaNode | undefined;
  for (let def = node?._zod?.def; def && (def.innerType ?? def.in) !== undefined; def = node?._zod?.def)
    node = (def.innerType ?? def.in) as SchemaNode;
  return node;
}

/**
 * The fields the object schema at `path` inside `schema` declares (through
 * wrappers, arrays, records and unions): what an unknown key there is compared with.
 */
export function fieldsAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  const def = unwrapped(schema)?._zod?.def;
  if (def?.type === 'union') return [...new Set((def.options ?? []).flatMap((option) => fieldsAt(option, path)))];
  if (path.length === 0) return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
  const [part, ...rest] = path;
  if (def?.type === 'object') return fieldsAt(def.shape?.[String(part)], rest);
  if (def?.type === 'array') return fieldsAt(def.element, rest);
  if (def?.type === 'record') return fieldsAt(def.valueType, rest);
  return [];
}

/** One sentence per unknown key of the object at `at`, each naming the nearest known field when one is near. */
export function unknownFields(
  at: readonly PropertyKey[],
  keys: readonly string[],
  known: readonly string[],
): { path: string; message: string }[] {
  return keys.map((key) => {
    const path = jsonPath([...at, key]);
    const suggestion = nearestWord(key, known);
    return {
      path,
      message: `${path} is not a field${at.length > 0 ? ` of ${jsonPath(at)}` : ''}${suggestion ? `; did you mean ${suggestion}?` : '.'}`,
    };
  });
}

const count = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function sizeLimit(issue: RawIssue & { code: 'too_small' | 'too_big' }, field: string): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  if (issue.origin === 'string') {
    if (small && bound === 1) return `${field} must not be empty.`;
    return `${field} must have ${small ? 'at least' : 'at most'} ${count(bound, 'character', 'characters')}.`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    if (small && bound === 1) return `${field} needs at least one entry.`;
    return `${field} takes ${small ? 'at least' : 'at most'} ${count(bound, 'entry', 'entries')}.`;
  }
  const comparison = small ? (issue.inclusive ? 'at least' : 'more than') : issue.inclusive ? 'at most' : 'less than';
  return `${field} must be ${comparison} ${bound}.`;
}

/** Which types a union takes, when every branch refused the value for its type alone. */
function unionTypes(issue: RawIssue & { code: 'invalid_union' }): string | undefined {
  const expected = issue.errors.map((branch) =>
    branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0].path.length === 0
      ? branch[0].expected
      : undefined,
  );
  if (expected.some((type) => type === undefined)) return undefined;
  return [...new Set(expected.map((type) => EXPECTED[type!] ?? type!))].join(' or ');
}

export function inputMessage(issue: RawIssue): string {
  const at = issue.path ?? [];
  const field = jsonPath(at) || 'body';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(issue.input)}.`;
    case 'unrecognized_keys':
      // Said of all the keys at once; callers that list one problem per key use unknownFields with the schema.
      return unknownFields(at, issue.keys, fieldsAt(issue.inst, []))
        .map((field) => field.message)
        .join(' ');
    case 'too_small':
    case 'too_big':
      return sizeLimit(issue, field);
    case 'invalid_value':
      return issue.values.length === 1
        ? `${field} must be ${JSON.stringify(issue.values[0])}.`
        : `${field} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}.`;
    case 'invalid_format':
      return `${field} is not a valid ${issue.format === 'regex' ? 'value here' : issue.format}.`;
    case 'invalid_union': {
      const types = unionTypes(issue);
      return types
        ? `${field} must be ${types}, not ${kindOf(issue.input)}.`
        : `${field} does not match any form this field takes.`;
    }
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.divisor}.`;
    case 'invalid_key':
    case 'invalid_element':
      return `${field} holds an invalid ${issue.code === 'invalid_key' ? 'key' : 'entry'}.`;
    default:
      return `${field} is not valid here.`;
  }
}
