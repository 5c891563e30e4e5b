// Prints the closing line CI reads, "N passed, N failed", from vitest's JSON report, and exits
// non-zero on any failure, on a failed earlier step (argv[3]), or when no test ran at all.
import { readFileSync } from 'node:fs';

const [file, priorStatus = '0'] = process.argv.slice(2);
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`no vitest JSON report at ${file}: ${error.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A test file that fails to load has no test results; count it as a failure so it cannot hide.
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + failedSuites + (priorStatus === '0' ? 0 : 1);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
// Skipped tests (the team's shared data missing, no Chromium) are said on their own line, so the
// closing line stays exactly "N passed, N failed".
if (skipped) console.log(`${skipped} skipped`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
