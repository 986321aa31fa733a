/**
 * Docs examples that run: every TypeScript or JavaScript block of the README is a region of an
 * example file that is type-checked (and run) with the package, copied unchanged. On a
 * difference this fails naming the block and the command that copies the regions in
 * (`pnpm readme-examples --update`).
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkReadme, extractRegion } from '../../../scripts/readme-examples.js';

it('every code block of the README is a region of an example file, unchanged', () => {
  const check = checkReadme(join(import.meta.dirname, '..'));
  if (!check.ok) throw new Error(check.message);
});

it('fails on a block that drifted from its region and on an unmarked block, and regenerates the first', () => {
  const root = join(import.meta.dirname, '..');
  const check = checkReadme(root, join(import.meta.dirname, 'fixtures', 'readme', 'README.md'));
  expect(check.ok).toBe(false);
  expect(check.problems).toEqual([
    'packages/core/test/fixtures/readme/README.md:6: the block differs from test/fixtures/readme/greet.examples.ts#greet',
    'packages/core/test/fixtures/readme/README.md:12: a ts block without an <!-- example: FILE#REGION --> marker',
  ]);
  expect(check.message).toContain('pnpm readme-examples --update');
  expect(check.expected).toContain("```ts\nconst greeting = greet('world'); // 'hello, world'\n```");
  expect(check.expected).toContain("```ts\ngreet('nobody');\n```");
});

it('extracts a region in parts, dedented, without the markers of other regions', () => {
  const source = [
    '// #region demo',
    "import { x } from 'x';",
    '// #endregion demo',
    'function f() {',
    '  // #region demo',
    '  // #region inner',
    '  x();',
    '  // #endregion inner',
    '  // #endregion demo',
    '}',
  ].join('\n');
  expect(extractRegion(source, 'demo')).toBe("import { x } from 'x';\n\nx();");
  expect(() => extractRegion(source, 'missing')).toThrow("no region 'missing'");
});
