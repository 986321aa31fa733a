/**
 * The public API is chosen, not accumulated: the entry point exports exactly the names
 * `api-report.md` lists. On a difference this fails with the names added or removed and the
 * command that accepts the change (`pnpm api-report --update`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkApiReport } from '../../../scripts/api-report.js';

it('exports exactly the names api-report.md lists', () => {
  const check = checkApiReport(join(import.meta.dirname, '..'));
  if (!check.ok) throw new Error(check.message);
});

it('fails on an unintended addition, naming it and the command that accepts it', () => {
  const fixture = join(import.meta.dirname, 'fixtures', 'api-report');
  const check = checkApiReport(join(import.meta.dirname, '..'), {
    entry: join(fixture, 'index.ts'),
    reportPath: join(fixture, 'api-report.md'),
  });
  expect(check.ok).toBe(false);
  expect(check.added.map((l) => l.replace(/\s+/g, ' '))).toEqual(['const INTERNAL_WEIGHTS']);
  expect(check.removed).toEqual([]);
  expect(check.message).toContain(
    'The public API of @cloudg/core differs from packages/core/test/fixtures/api-report/api-report.md:',
  );
  expect(check.message).toMatch(/\+ const\s+INTERNAL_WEIGHTS/);
  expect(check.message).toContain('pnpm api-report --update');
});

it('fails on a removal or a changed kind, and passes once the report is regenerated', () => {
  const root = join(import.meta.dirname, '..');
  const entry = join(import.meta.dirname, 'fixtures', 'api-report', 'index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'cloudg-api-report-'));
  const reportPath = join(dir, 'api-report.md');
  const current = checkApiReport(root, { entry, reportPath }).expected;

  writeFileSync(reportPath, current);
  expect(checkApiReport(root, { entry, reportPath }).ok).toBe(true);

  // A report that still lists a name the code no longer exports, and `Thing` as a class.
  writeFileSync(
    reportPath,
    current
      .replace('```text\n', '```text\nclass        Gone\n')
      .replace('interface    Thing', 'class        Thing'),
  );
  const check = checkApiReport(root, { entry, reportPath });
  expect(check.ok).toBe(false);
  expect(check.added.map((l) => l.replace(/\s+/g, ' '))).toEqual(['interface Thing']);
  expect(check.removed.map((l) => l.replace(/\s+/g, ' '))).toEqual(['class Gone', 'class Thing']);
  expect(check.message).toMatch(/- class\s+Gone/);
});
