const { mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

// CI reads one plain closing line, `N passed, N failed`; suites that crashed before
// running their tests count as failures so they cannot pass silently. `npm test` runs
// jest three times (the suite, its slice on the production shape, then the benchmarks
// alone): a run configured with `{ carried: true }` adds the earlier runs' totals, and
// the one configured `{ last: true }` too ends the carrying, so its line counts all.
const CARRY_FILE = path.join(__dirname, '..', 'node_modules', '.cache', 'einvoice-test-summary.json');

class SummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.carried = options.carried === true;
    this.last = options.last === true;
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
        // No earlier run to add (this one runs on its own).
      }
    }
    if (this.last) {
      rmSync(CARRY_FILE, { force: true });
    } else {
      mkdirSync(path.dirname(CARRY_FILE), { recursive: true });
      writeFileSync(CARRY_FILE, JSON.stringify({ passed, failed }));
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
