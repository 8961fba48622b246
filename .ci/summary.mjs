// Prints the closing "N passed, N failed[, N skipped]" line of a CI run from vitest's JSON report.
// A failing `npm test` whose report shows no failed test (type-check, lint or a crashed runner)
// still counts as one failure, so a red run can never print a green line.
import { existsSync, readFileSync } from 'node:fs';

const [file, statusArg] = process.argv.slice(2);
const status = Number(statusArg ?? '1');
let passed = 0;
let failed = 0;
let skipped = 0;
if (file && existsSync(file)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
