// Prints vitest's JSON reports (one per test layer: unit, int, browser) as the plain
// "N passed, N failed, N skipped" line CI reads, summed over every report given, after one line per
// layer. A report that is missing or unreadable (its layer crashed before reporting) counts as one
// failed test, so the total never reads "0 failed" for a layer that did not run. Each failed test is
// named on a "FAILED layer: file > test" line before the counts.
// Usage: node scripts/test-summary.mjs .vitest-reports/unit.json .vitest-reports/int.json ...
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.vitest-reports/unit.json'];
const total = { passed: 0, failed: 0, skipped: 0 };
const layers = [];
const failures = [];
for (const file of files) {
  const layer = basename(file, '.json');
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const passed = report.numPassedTests ?? 0;
    const failed = report.numFailedTests ?? 0;
    const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed to load (syntax error, failing beforeAll) has no failed test but fails the run.
    const brokenFiles = (report.testResults ?? []).filter(
      (result) =>
        result.status === 'failed' && (result.assertionResults ?? []).every((a) => a.status !== 'failed'),
    ).length;
    for (const result of report.testResults ?? []) {
      const failedTests = (result.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const test of failedTests) failures.push(`${layer}: ${result.name} > ${test.fullName}`);
      if (result.status === 'failed' && failedTests.length === 0)
        failures.push(
          `${layer}: ${result.name} (did not run: ${String(result.message ?? '')
            .split('\n')[0]
            .slice(0, 200)})`,
        );
    }
    total.passed += passed;
    total.failed += failed + brokenFiles;
    total.skipped += skipped;
    const broken = brokenFiles > 0 ? ` +${brokenFiles} file(s) that failed to run` : '';
    layers.push(`${layer} ${passed}/${failed}/${skipped}${broken}`);
  } catch (error) {
    total.failed += 1;
    layers.push(`${layer} has no report (${error.message})`);
  }
}
// CI shows only the end of the output: the names of what failed come just before the counts.
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`layers (passed/failed/skipped): ${layers.join('; ')}`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
