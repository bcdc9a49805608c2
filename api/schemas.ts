import { isPeppolActiveCountry } from '../domain/countries';
import { isValidIban, normalizeIban } from '../domain/iban';
import { idPattern, type IdKind } from '../domain/ids';
import { peppolIdProblem } from '../domain/peppol-id';
import { ROLES } from '../domain/roles';
import { z } from './openapi';

/** Input building blocks shared by the routes; each carries its OpenAPI description. */

export const text = (max: number) => z.string().trim().min(1).max(max);

export const resourceId = (kind: IdKind, example: string) =>
  z.string().regex(idPattern(kind), `expected an id like ${example}`).openapi({ example });

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
  .openapi({ description: 'ISO 3166-1 alpha-2 code of a country with active Peppol use', example: 'BE' });

export const peppolId = z
  .string()
  .trim()
  .max(140)
  .superRefine((value, ctx) => {
    const problem = peppolIdProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `Invalid Peppol id: ${problem}.`, params: { code: 'invalid_peppol_id' } });
  })
  .openapi({ description: 'Peppol participant id, `scheme:id` with a current EAS scheme', example: '0208:0123456749' });

export const iban = z
  .string()
  .max(50)
  .refine(isValidIban, 'not a valid IBAN (structure or check digits)')
  .transform(normalizeIban)
  .openapi({ example: 'BE68539007547034' });

export const address = z
  .object({ street: text(200).optional(), city: text(100).optional(), postal_code: text(20).optional() })
  .strict()
  .openapi('Address');

/** `limit` and `cursor` of cursor-paginated lists. */
export const pageQuery = (defaultLimit: number) =>
  z
    .object({
      limit: z.coerce.number().int().min(1).max(100).default(defaultLimit).openapi({ description: `1 to 100, default ${defaultLimit}` }),
      cursor: z.string().max(200).optional().openapi({ description: 'Opaque `next_cursor` of the previous page' }),
    })
    .strict();
