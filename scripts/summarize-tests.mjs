#!/usr/bin/env node
// Prints the one-line test count CI reads: `N passed, M failed[, K skipped]`.
// A missing or unreadable report counts as one failure, so a run that never reported can't pass.
// The optional second argument is how many other checks failed (bootstrap, lint, typecheck):
// each counts as one failure, so the line never reads all-green when the run was not.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
const failedChecks = Number.parseInt(process.argv[3] ?? '0', 10);

function count(value) {
  return Number.isInteger(value) && value > 0 ? value : 0;
}

const otherFailures = Number.isInteger(failedChecks) && failedChecks > 0 ? failedChecks : 0;
let line = `0 passed, ${1 + otherFailures} failed`;
try {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const passed = count(report.numPassedTests);
  let failed = count(report.numFailedTests);
  const skipped = count(report.numPendingTests) + count(report.numTodoTests);
  // A file that fails to load (syntax error, missing import) has no failed tests of its own:
  // count it as one failure so the line never reads all-green for a broken run.
  const brokenFiles = (Array.isArray(report.testResults) ? report.testResults : []).filter(
    (r) => r?.status === 'failed' && !(r.assertionResults ?? []).some((a) => a?.status === 'failed'),
  ).length;
  failed += brokenFiles + otherFailures;
  if (failed === 0 && report.success === false) failed = 1;
  line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
} catch {
  // keep the failure line
}
process.stdout.write(`${line}\n`);
