const path = require('node:path');

const lane = require('./test/jest-lane.js');

/**
 * The suite, as two projects. Unit and deployment tests need no server: run alone (`npx jest test/unit/x.test.ts`)
 * they start nothing. Every other test shares one embedded stack (Temporal, FerretDB, SMTP sink, validator, the
 * network stand-in, worker, API), which jest starts only when a test of that project is selected. The slice on
 * the production shape (test/production/jest.config.js) and the benchmarks' smoke run (test/bench/jest.config.js)
 * come after, each on its own.
 * @type {import('jest').Config}
 */
const withoutServer = ['<rootDir>/test/unit/', '<rootDir>/test/deployment/'];

module.exports = {
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
  // Above the longest wait for a delivery (test/support/documents.ts), so a slow one fails with what it last read.
  testTimeout: 120_000,
  // Most tests wait on the stacks rather than compute: a third lane shortens the run on two cores.
  maxWorkers: 3,
  projects: [
    { ...lane, rootDir: __dirname, testMatch: withoutServer.map((dir) => `${dir}**/*.test.ts`) },
    {
      ...lane,
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '<rootDir>/test/bench/',
        '<rootDir>/test/production/',
        ...withoutServer,
      ],
      globalSetup: path.join(__dirname, 'test/global-setup.ts'),
      globalTeardown: path.join(__dirname, 'test/global-teardown.ts'),
    },
  ],
};
