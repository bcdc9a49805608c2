/**
 * A slice of the suite on the production shape (STACK_SHAPE=production: PostgreSQL, the Temporal server on it,
 * FerretDB on it, two API and two worker processes behind the front proxy), after the suite and before the
 * benchmarks: sending (sandbox, and live by AS4), receiving by AS4, webhooks, the KYC review's signal, the
 * reporting schedule, the visibility store, and the engines killed and restarted under load.
 * @type {import('jest').Config}
 */
const lane = require('../jest-lane.js');

module.exports = {
  ...lane,
  testTimeout: 120_000,
  rootDir: '../..',
  testMatch: [
    '<rootDir>/test/production/**/*.test.ts',
    '<rootDir>/test/integration/documents.test.ts',
    '<rootDir>/test/integration/live-delivery.test.ts',
    '<rootDir>/test/integration/receiving-live.test.ts',
    '<rootDir>/test/integration/webhooks.test.ts',
    '<rootDir>/test/integration/kyc-review.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/production/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  reporters: ['default', ['<rootDir>/test/summary-reporter.js', { carried: true }]],
  // One file at a time: the failures test runs a second production stack of its own and kills its processes.
  maxWorkers: 1,
};
