// Sums the vitest JSON reports that `pnpm test` wrote (every `.vitest-results*.json` in a
// workspace package, and the root scripts' in scripts/) and prints the totals line. A run that
// failed without writing a report counts as one failure, so a broken suite can never read as
// green; so does each failed check passed as an argument.
//
//   node .ci/totals.mjs <test exit status> [failed check...]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [statusArg = '0', ...failedChecks] = process.argv.slice(2);
const status = Number(statusArg);

/** Folders that can hold reports: each workspace package, and scripts/. */
function reportDirs() {
  const dirs = ['scripts'];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(group)) continue;
    for (const entry of readdirSync(group, { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(join(group, entry.name));
    }
  }
  return dirs.filter((dir) => existsSync(dir));
}

let passed = 0;
let failed = 0;
let reports = 0;
for (const dir of reportDirs()) {
  for (const name of readdirSync(dir)) {
    if (!/^\.vitest-results(\.[\w-]+)?\.json$/.test(name)) continue;
    const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    reports += 1;
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + ((report.numRuntimeErrors ?? 0) > 0 ? 1 : 0);
    if (report.success === false && !report.numFailedTests && !report.numRuntimeErrors) failed += 1;
  }
}
if (status !== 0 && failed === 0) failed = 1;
if (reports === 0 && failed === 0) failed = 1;
for (const check of failedChecks) {
  console.log(`${check} failed`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
