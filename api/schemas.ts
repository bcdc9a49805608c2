import { isPeppolActiveCountry } from '../domain/countries';
import { isValidIban, normalizeIban } from '../domain/iban';
import { idPattern, type IdKind } from '../domain/ids';
import { peppolIdProblem } from '../domain/peppol-id';
import { ROLES } from '../domain/roles';
import { isXmlSafe, XML_UNSAFE_MESSAGE } from '../domain/text';
import { z } from './openapi';

/** Input building blocks shared by the routes; each carries its OpenAPI description. */

/** Free text: trimmed, bounded, and only characters XML and other systems can carry. */
export const text = (max: number) => z.string().trim().min(1).max(max).refine(isXmlSafe, XML_UNSAFE_MESSAGE);

/** An id in a body field: malformed is a 400 naming the field. */
export const resourceId = (kind: IdKind, example: string) =>
  z.string().regex(idPattern(kind), `expected an id like ${example}`).openapi({ example });

/**
 * An id in the path (or a query naming a resource): any value is looked up,
 * and one that names nothing is simply not found (404, or 403 where the spec
 * says so), however long (the routes check an id's shape before the database
 * sees it). The pattern tells clients what ids look like.
 */
export const idParam = (kind: IdKind, example: string) => z.string().openapi({ pattern: idPattern(kind).source, example });

export const emailAddress = z.email().max(254).openapi({ example: 'ap@example.com' });

export const role = z.enum(ROLES);

export const country = z
  .string()
  .transform((value) => value.trim().toUpperCase())
  .superRefine((value, ctx) => {
    if (!isPeppolActiveCountry(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `${value || 'country'} is not the ISO 3166-1 alpha-2 code of a country with active Peppol use.`,
        params: { code: 'invalid_country' },
      });
    }
  })
  .openapi({ description: 'ISO 3166-1 alpha-2 code of a country with active Peppol use', example: 'BE', pattern: '^[A-Za-z]{2}$' });

export const peppolId = z
  .string()
  .trim()
  .max(140)
  .superRefine((value, ctx) => {
    const problem = peppolIdProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `Invalid Peppol id: ${problem}.`, params: { code: 'invalid_peppol_id' } });
  })
  .openapi({ description: 'Peppol participant id, `scheme:id` with a current EAS scheme; the id is printable ASCII without space or < > & " \'', example: '0208:0123456749', pattern: '^[0-9]{4}:[!#-%(-;=?-~]{1,130}$' });

export const iban = z
  .string()
  .max(50)
  .refine(isValidIban, 'not a valid IBAN (structure or check digits)')
  .transform(normalizeIban)
  .openapi({ example: 'BE68539007547034', pattern: '^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{10,40}$' });

export const address = z
  .object({ street: text(200).optional(), city: text(100).optional(), postal_code: text(20).optional() })
  .strict()
  .openapi('Address');

/** An opaque `next_cursor`: base64url. */
export const cursorParam = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'not a next_cursor of this list')
  .optional()
  .openapi({ description: 'Opaque `next_cursor` of the previous page' });

/** `limit` and `cursor` of cursor-paginated lists. */
export const pageQuery = (defaultLimit: number) =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(defaultLimit).openapi({ description: `1 to 100, default ${defaultLimit}` }),
      cursor: cursorParam,
    })
    .strict();
