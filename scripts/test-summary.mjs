// Adds up one scripts/test.sh run into one closing line that any CI reads the same way:
// "Total: N passed, N failed, N skipped" (P32). It reads, in the reports directory:
//   <tier>.jest.json     jest --json reports (unit, e2e, persistent, ...);
//   fuzz.summary.json    the fuzz step's counts (fuzz/run.mjs: {tool, passed, failed, skipped});
//   <step>.exit          the exit code of each step. A failed step without a failed test
//                        in its report (type errors, a crash, a suite that did not load) counts as
//                        one failure, so the total can never read "0 failed" after a red step.
// With --setup-failed, a preparation step failed before any tier ran: one failure.
// One line per tier first, then the total, last.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const setupFailed = process.argv.includes('--setup-failed');
const files = existsSync(dir) ? readdirSync(dir).sort() : [];
const tiers = new Map(); // name -> {passed, failed, skipped, exit}
const tier = (name) => {
  if (!tiers.has(name)) tiers.set(name, { passed: 0, failed: 0, skipped: 0, exit: 0, report: false, ranAt: Infinity });
  return tiers.get(name);
};

for (const file of files) {
  const path = join(dir, file);
  let m;
  if ((m = /^(.+)\.jest\.json$/.exec(file))) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    const t = tier(m[1]);
    t.report = true;
    t.passed += report.numPassedTests;
    t.failed += report.numFailedTests;
    t.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    // A test file that failed to run (syntax error, failing beforeAll without tests) has no failed test.
    if (report.numRuntimeErrorTestSuites > 0 && report.numFailedTests === 0) t.failed += report.numRuntimeErrorTestSuites;
  } else if ((m = /^(.+)\.summary\.json$/.exec(file))) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    const t = tier(m[1]);
    t.report = true;
    t.passed += report.passed;
    t.failed += report.failed;
    t.skipped += report.skipped ?? 0;
  } else if ((m = /^(.+)\.exit$/.exec(file))) {
    const code = Number(readFileSync(path, 'utf8').trim());
    tier(m[1]).exit = Number.isInteger(code) ? code : 1;
    tier(m[1]).ranAt = statSync(path).mtimeMs; // tiers are listed in the order they ran
  }
}

let passed = 0;
let failed = setupFailed ? 1 : 0;
let skipped = 0;
for (const [name, t] of [...tiers].sort((a, b) => a[1].ranAt - b[1].ranAt)) {
  if (t.exit && t.failed === 0) t.failed = 1;
  passed += t.passed;
  failed += t.failed;
  skipped += t.skipped;
  const how = t.report
    ? `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`
    : t.failed
      ? 'failed (exit code ' + t.exit + ')'
      : 'passed';
  console.log(`  ${name.padEnd(12)} ${how}`);
}
console.log(`Total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed ? 1 : 0;
