import { randomInt } from 'node:crypto';

/**
 * An SMP migration key (Peppol SML 1.3.0, 2.2): the secret an SMP gives the
 * SML with PrepareToMigrate and the participant passes to its new SMP, which
 * presents it with Migrate. 8 to 24 characters without whitespace, at least
 * two each of lower-case letters, upper-case letters, digits and the special
 * characters `@#$%()[]{}*^-!~|+=` (peppol-commons' pattern, which BDMSL
 * applies, also takes `_`).
 */

/** What a new key is made of: look-alikes (l, I, O, 0, 1) left out. */
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIAL = '@#$%()[]{}*^-!~|+=';
export const MIGRATION_KEY_LENGTH = { min: 8, max: 24 } as const;

/** Each class a key needs two of. */
const CLASSES: [RegExp, string][] = [
  [/[a-z]/g, 'lower-case letters'],
  [/[A-Z]/g, 'upper-case letters'],
  [/[0-9]/g, 'digits'],
  [/[@#$%()[\]{}*^\-!~|+=_]/g, `special characters (${SPECIAL})`],
];

/** Why the key is not one the SML takes; undefined when it is. */
export function migrationKeyProblem(key: string): string | undefined {
  if (key.length < MIGRATION_KEY_LENGTH.min || key.length > MIGRATION_KEY_LENGTH.max) {
    return `a migration key has ${MIGRATION_KEY_LENGTH.min} to ${MIGRATION_KEY_LENGTH.max} characters, not ${key.length}`;
  }
  if (/\s/.test(key)) return 'a migration key has no whitespace';
  const short = CLASSES.filter(([pattern]) => (key.match(pattern) ?? []).length < 2).map(([, name]) => name);
  return short.length > 0
    ? `a migration key has at least two of each character class, and too few ${short.join(', ')}`
    : undefined;
}

/** A new key of the greatest length, each class twice and the rest from all of them, shuffled (letters and digits that look alike left out). */
export function newMigrationKey(): string {
  const pick = (characters: string) => characters[randomInt(characters.length)]!;
  const all = LOWER + UPPER + DIGITS + SPECIAL;
  const characters = [LOWER, LOWER, UPPER, UPPER, DIGITS, DIGITS, SPECIAL, SPECIAL].map(pick);
  while (characters.length < MIGRATION_KEY_LENGTH.max) characters.push(pick(all));
  for (let i = characters.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [characters[i], characters[j]] = [characters[j]!, characters[i]!];
  }
  return characters.join('');
}
