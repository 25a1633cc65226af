// Prints vitest's JSON report as the plain "N passed, N failed, N skipped" line CI reads.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch (error) {
  console.log(`no test report (${error.message})`);
}
