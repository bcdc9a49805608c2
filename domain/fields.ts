import { z } from 'zod';

import { characterCount, XML_TEXT, XML_TEXT_MESSAGE } from './text';

/**
 * Zod fields shared by the API's bodies and the document input. Each checks a
 * value with the very expression its OpenAPI description states (`pattern`,
 * `maxLength`), so a request the description allows is not refused for a rule
 * it did not state. (A `u`-flagged expression goes into the description as
 * its source: zod's own `.regex()` would write the flag into the pattern.)
 */

/** Free text: trimmed, not blank, only characters XML can carry, at most `max` characters (counted as JSON Schema counts them). */
export const xmlText = (max: number) =>
  z
    .string()
    .trim()
    .refine((value) => XML_TEXT.test(value), XML_TEXT_MESSAGE)
    .refine((value) => characterCount(value) <= max, `must be at most ${max} characters`)
    .meta({ minLength: 1, maxLength: max, pattern: XML_TEXT.source });

/**
 * An email address as this service takes it: a local part of letters, digits
 * and _ ' + - in dot-separated runs, and a domain name of letters, digits and
 * inner hyphens with a top-level label of letters. Narrower than RFC 5322 on
 * purpose: these addresses go into UBL, mail headers and operators' tables.
 * A local part has at most 64 characters and a domain label at most 63, as
 * SMTP (RFC 5321, 4.5.3.1) and DNS (RFC 1035, 2.3.4) allow.
 * @internal
 */
export const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const emailAddress = z
  .string()
  .max(254)
  .regex(
    EMAIL_ADDRESS,
    "not an email address such as ap@example.com (letters, digits and _ ' + - before the @, a domain name after it)",
  )
  .meta({ format: 'email' });
