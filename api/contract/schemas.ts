import { isPeppolActiveCountry, peppolActiveCountries } from '../../domain/countries';
import { emailAddress as emailField, xmlText } from '../../domain/fields';
import { isValidIban, normalizeIban, WRITTEN_IBAN } from '../../domain/iban';
import { idPattern, type IdKind } from '../../domain/ids';
import { CHECK_DIGIT_SCHEMES, PEPPOL_ID_PATTERN, peppolIdProblem } from '../../domain/peppol/ids';
import { ROLES } from '../../domain/roles';
import { z } from './openapi';

/** Input building blocks shared by the routes; each carries its OpenAPI description. */

/** Free text: trimmed, not blank, bounded, and only characters XML and other systems can carry (domain/fields.ts). */
export const text = xmlText;

/** An id in a body field: malformed is a 400 naming the field. */
export const resourceId = (kind: IdKind, example: string) =>
  z.string().regex(idPattern(kind), `expected an id like ${example}`).openapi({ example });

/**
 * An id in the path (or a query naming a resource): any value is looked up,
 * and one that names nothing is simply not found (404, or 403 where the spec
 * says so), however long (the routes check an id's shape before the database
 * sees it). The pattern tells clients what ids look like.
 */
export const idParam = (kind: IdKind, example: string) =>
  z.string().openapi({ pattern: idPattern(kind).source, example });

// `.meta`, not `.openapi`: emailField may be made before zod is extended for OpenAPI (domain/fields.ts knows nothing of it); the metadata adds to its own.
export const emailAddress = emailField.meta({ example: 'ap@example.com' });

export const role = z.enum(ROLES);

/** One of the codes the description lists, exactly: upper case, as ISO 3166-1 writes them (and as a document's addresses take them). */
export const country = z
  .string()
  .superRefine((value, ctx) => {
    if (!isPeppolActiveCountry(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `${value || 'country'} is not the ISO 3166-1 alpha-2 code (upper case) of a country with active Peppol use.`,
        params: { code: 'invalid_country' },
      });
    }
  })
  .openapi({
    description: 'ISO 3166-1 alpha-2 code, upper case, of a country with active Peppol use',
    example: 'BE',
    enum: [...peppolActiveCountries],
  });

export const peppolId = z
  .string()
  .trim()
  .max(140)
  .superRefine((value, ctx) => {
    const problem = peppolIdProblem(value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        message: `Invalid Peppol id: ${problem}.`,
        params: { code: 'invalid_peppol_id' },
      });
  })
  .openapi({
    description:
      "Peppol participant id, `scheme:id`: a current EAS scheme and an identifier in that scheme's format (the pattern lists both). " +
      `The identifiers of schemes ${CHECK_DIGIT_SCHEMES.join(', ')} carry check digits, which must match too (else 400 \`invalid_peppol_id\`).`,
    example: '0208:0123456749',
    pattern: PEPPOL_ID_PATTERN,
  });

export const iban = z
  .string()
  .max(50)
  .refine(isValidIban, 'not a valid IBAN (structure or check digits)')
  .transform(normalizeIban)
  .openapi({
    description:
      'IBAN, spaces and either case allowed; stored without spaces in upper case. Its check digits (ISO 7064 mod 97) must match too.',
    example: 'BE68539007547034',
    pattern: WRITTEN_IBAN.source,
  });

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
  .openapi({
    description: 'Opaque `next_cursor` of the previous page of this list; any other value is 400 `invalid_field`',
  });

/** `limit` and `cursor` of cursor-paginated lists. */
export const pageQuery = (defaultLimit: number) =>
  z
    .object({
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(100)
        .default(defaultLimit)
        .openapi({ description: `1 to 100, default ${defaultLimit}` }),
      cursor: cursorParam,
    })
    .strict();
