/**
 * Docs examples that run: every TypeScript or JavaScript block of the README is a region of an
 * example file that is type-checked (and run) with the package, copied unchanged. On a
 * difference this fails naming the block and the command that copies the regions in
 * (`pnpm readme-examples --update`).
 */
import { join } from 'node:path';
import { it } from 'vitest';
import { checkReadme } from '../../../scripts/readme-examples.js';

it('every code block of the README is a region of an example file, unchanged', () => {
  const check = checkReadme(join(import.meta.dirname, '..'));
  if (!check.ok) throw new Error(check.message);
});
