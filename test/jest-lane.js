/**
 * What every jest lane of this project shares (the suite's two projects, the production shape's slice, the
 * benchmarks' smoke run): Node, and swc to strip the types `tsc --noEmit` has already checked.
 */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
};
