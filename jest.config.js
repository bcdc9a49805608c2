/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Types are checked by `tsc --noEmit` before jest runs; swc only strips them.
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The slice on the production shape (test/production/jest.config.js) and the benchmarks' smoke run
  // (test/bench/jest.config.js) come after, each on its own.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/bench/', '<rootDir>/test/production/'],
  // One embedded stack (Temporal, FerretDB, SMTP sink, worker, API) for the whole run.
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  testTimeout: 60_000,
  // Most tests wait on the stacks rather than compute: a third lane shortens the run on two cores.
  maxWorkers: 3,
};
