const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

// CI reads one plain closing line, `N passed, N failed`; suites that crashed before
// running their tests count as failures so they cannot pass silently. `npm test` runs
// jest twice (the suite, then the benchmarks alone): the second run, configured with
// `{ carried: true }`, adds the first run's totals, so the last line counts both.
const CARRY_FILE = path.join(__dirname, '..', 'node_modules', '.cache', 'einvoice-test-summary.json');

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.carried = options.carried === true;
  }

  onRunComplete(_contexts, results) {
    let passed = results.numPassedTests;
    let failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    if (this.carried) {
      try {
        const before = JSON.parse(readFileSync(CARRY_FILE, 'utf8'));
        passed += before.passed;
        failed += before.failed;
      } catch {
        // No earlier run to add (the benchmarks run on their own).
      }
      rmSync(CARRY_FILE, { force: true });
    } else {
      mkdirSync(path.dirname(CARRY_FILE), { recursive: true });
      writeFileSync(CARRY_FILE, JSON.stringify({ passed, failed }));
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
