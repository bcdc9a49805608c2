import { migrationKeyProblem, newMigrationKey } from '../../domain/peppol/migration-key';

/** The SML's rule for migration keys (SML 1.3.0, 2.2), and the keys we make. */
describe('SMP migration keys', () => {
  it.each([
    ['the shortest a rule allows', 'ab#CD$12', undefined],
    ['the longest', 'abCD12@#abCD12@#abCD12@#', undefined],
    ['underscores as special characters (peppol-commons takes them)', 'abCD12__', undefined],
    ['too short', 'aB1@aB1', /8 to 24 characters, not 7/],
    ['too long', 'abCD12@#abCD12@#abCD12@#x', /not 25/],
    ['whitespace', 'ab CD12@#x', /no whitespace/],
    ['one special character', 'abCD123@', /too few special characters/],
    ['only lower-case letters and digits', 'abcdef1234', /too few upper-case letters, special characters/],
  ])('%s', (_what, key, problem) => {
    const found = migrationKeyProblem(key);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it('makes keys of 24 characters that keep the rule, each new', () => {
    const keys = Array.from({ length: 200 }, newMigrationKey);
    for (const key of keys) {
      expect(key).toHaveLength(24);
      expect(migrationKeyProblem(key)).toBeUndefined();
    }
    expect(new Set(keys).size).toBe(keys.length);
  });
});
