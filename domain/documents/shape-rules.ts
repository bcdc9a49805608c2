import type { z } from 'zod';

import { fieldsAt, jsonPath, namingField, unknownFields } from '../input-messages';
import type { Violation } from './violation';

/**
 * The EN 16931 / Peppol rule each field of the JSON document stands for, so a
 * problem found while reading the shape names the rule the official artefacts
 * would name for the same field, as the checks of meaning do (rules.ts). Paths
 * are written with `[]` for any index. A field with no rule of its own (free
 * text, our own limits) has none here, and its violation says `rule: null`.
 */
const FIELD_RULES: Readonly<Record<string, string>> = {
  number: 'BR-02',
  issue_date: 'BR-03',
  currency: 'PEPPOL-EN16931-CL007',
  to: 'BR-07',
  'from.address.country': 'BR-09',
  'to.address.country': 'BR-11',
  'delivery.country': 'BR-CL-14',
  lines: 'BR-16',
  'lines[].description': 'BR-25',
  'lines[].quantity': 'BR-22',
  'lines[].unit': 'BR-CL-23',
  'lines[].unit_price': 'BR-26',
  'lines[].allowances[].amount': 'BR-41',
  'lines[].charges[].amount': 'BR-43',
  'allowances[].amount': 'BR-31',
  'charges[].amount': 'BR-36',
  'invoice_reference.number': 'BR-55',
  'payment.means_code': 'BR-CL-16',
  'greece.mark': 'GR-R-004-1',
};

const ruleOfField = (path: string): string | null => FIELD_RULES[path.replace(/\[\d+\]/g, '[]')] ?? null;

/** A shape problem of `schema` as violations: one per unknown key (naming the nearest known one), else its path, the field's rule and our sentence. */
export function issueViolations(issue: z.core.$ZodIssue, schema: z.ZodType): Violation[] {
  if (issue.code === 'unrecognized_keys')
    return unknownFields(issue.path, issue.keys, fieldsAt(schema, issue.path)).map(({ path, message }) => ({
      path,
      rule: null,
      message,
    }));
  const path = jsonPath(issue.path);
  return [{ path, rule: ruleOfField(path), message: namingField(issue.message, path || 'body') }];
}
