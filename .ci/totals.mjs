// Sums the vitest JSON reports every package wrote during `pnpm test` and prints the
// totals line. A package whose run failed without writing a report counts as one failure,
// so a broken suite can never read as green.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const status = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let reports = 0;
for (const group of ['packages', 'apps', 'conformance']) {
  if (!existsSync(group)) continue;
  for (const name of readdirSync(group)) {
    const file = join(group, name, '.vitest-results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    reports += 1;
    passed += report.numPassedTests ?? 0;
    failed += (report.numFailedTests ?? 0) + (report.numRuntimeErrors ?? 0 > 0 ? 1 : 0);
    if (report.success === false && !report.numFailedTests) failed += 1;
  }
}
if (status !== 0 && failed === 0) failed = 1;
if (reports === 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
