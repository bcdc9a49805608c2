import { convertDocument } from '../domain/documents/convert';
import { documentInputSchema } from '../domain/documents/input';
import type { Violation } from '../domain/documents/rules';
import { newId } from '../domain/ids';
import type { AcceptableDocument } from '../services/documents/accept';
import type { Company } from '../services/companies';
import { ApiError } from './errors';
import { listedProblems } from './validation';

/**
 * A posted document, parsed and converted for the company that sends it, or
 * refused with 422 `document_invalid` listing every violation (path, rule,
 * message): the shape first, then the meaning (domain/documents/rules.ts).
 */

const jsonPath = (path: PropertyKey[]) =>
  path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');

export function documentRefused(violations: Violation[]): ApiError {
  const [first] = violations;
  return new ApiError('document_invalid', `The document was refused: ${violations.length} problem${violations.length === 1 ? '' : 's'}; see details.violations.`, {
    ...(first?.path && { param: first.path }),
    details: listedProblems('violations', violations),
  });
}

export function prepareDocument(body: unknown, company: Company): AcceptableDocument {
  const parsed = documentInputSchema.safeParse(body);
  if (!parsed.success) {
    throw documentRefused(parsed.error.issues.map((issue) => ({ path: jsonPath(issue.path), rule: null, message: issue.message })));
  }
  const attachmentIds = (parsed.data.attachments ?? []).map(() => newId('attachment'));
  const conversion = convertDocument(parsed.data, company, attachmentIds);
  if (!conversion.ok) throw documentRefused(conversion.violations);
  return { document: conversion.document, calculated: conversion.calculated, ubl: conversion.ubl, attachmentIds };
}
