import type { z, ZodType } from 'zod';

import { fieldsAt, inputMessage, jsonPath, namingField, unknownFields } from '../../domain/input-messages';
import { ApiError, type ErrorCode } from './errors';

/**
 * Turns zod's findings into the one envelope: the first problem names the code
 * and `param` (a JSON path such as `address.city`), and `details.errors` lists
 * every problem so a client can fix them all at once, each in the service's own
 * words (domain/input-messages.ts). Schemas can name a
 * spec code for their own checks with `params: { code }`.
 */

export type InputLocation = 'body' | 'query' | 'path';

export interface InputOptions {
  /** Which code a required field that is absent gets (the spec uses both). */
  missingCode?: Extract<ErrorCode, 'missing_field' | 'invalid_field'>;
}

const ISSUE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'invalid_country',
  'invalid_peppol_id',
  'invalid_field',
  'missing_field',
]);

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, part) =>
      node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[part] : undefined,
    data,
  );
}

interface Problem {
  code: ErrorCode;
  param: string;
  message: string;
}

function problemsOf(
  issue: z.core.$ZodIssue,
  schema: ZodType,
  data: unknown,
  location: InputLocation,
  options: InputOptions,
): Problem[] {
  if (issue.code === 'unrecognized_keys') {
    return unknownFields(issue.path, issue.keys, fieldsAt(schema, issue.path)).map(({ path, message }) => ({
      code: 'invalid_field',
      param: path,
      message,
    }));
  }
  const param = jsonPath(issue.path) || location;
  const message = namingField(issue.message, param);
  const named = (issue as { params?: { code?: string } }).params?.code;
  if (named && ISSUE_CODES.has(named)) return [{ code: named as ErrorCode, param, message }];
  if (issue.code === 'invalid_type' && valueAt(data, issue.path) === undefined && issue.path.length > 0) {
    return [{ code: options.missingCode ?? 'missing_field', param, message }];
  }
  return [{ code: 'invalid_field', param, message }];
}

/** The one place the generic field codes are made, for checks that zod schemas cannot express. */
export const invalidField = (param: string, message: string) => new ApiError('invalid_field', message, { param });
export const missingField = (param: string, message: string) => new ApiError('missing_field', message, { param });

/** An update must change something: an empty one is `no_fields_to_update`, naming the fields it could change. */
export function requireSomeField(body: object, updatable: { shape: object }): void {
  if (Object.keys(body).length === 0) {
    throw new ApiError('no_fields_to_update', 'Send at least one field to change.', {
      details: { fields: Object.keys(updatable.shape) },
    });
  }
}

/** Lists in error answers stop here, so an answer never grows much beyond the request that caused it. */
const MAX_LISTED_PROBLEMS = 50;

/** `{<name>: the first MAX_LISTED_PROBLEMS, total, truncated}`: every problem, up to a bound. */
export function listedProblems<T>(name: string, problems: T[]): Record<string, unknown> {
  const truncated = problems.length > MAX_LISTED_PROBLEMS;
  return { [name]: problems.slice(0, MAX_LISTED_PROBLEMS), ...(truncated && { total: problems.length, truncated }) };
}

export function parseInput<T extends ZodType>(
  schema: T,
  data: unknown,
  location: InputLocation,
  options: InputOptions = {},
): z.output<T> {
  const result = schema.safeParse(data, { error: inputMessage });
  if (result.success) return result.data;
  const problems = result.error.issues.flatMap((issue) => problemsOf(issue, schema, data, location, options));
  const [first] = problems as [Problem, ...Problem[]];
  throw new ApiError(first.code, first.message, {
    param: first.param,
    ...(problems.length > 1 && { details: listedProblems('errors', problems) }),
  });
}
