/**
 * The benchmarks' smoke run, after the suite and alone: each benchmark starts stacks of its own and
 * measures CPU-bound work, which would skew the suite's own timing checks if they shared the two cores.
 * @type {import('jest').Config}
 */
const lane = require('../jest-lane.js');

module.exports = {
  ...lane,
  testTimeout: 60_000,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/bench/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  reporters: ['default', ['<rootDir>/test/summary-reporter.js', { carried: true, last: true }]],
  maxWorkers: 1,
};
