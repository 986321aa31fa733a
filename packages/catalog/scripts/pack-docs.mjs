// The cloudg://docs/{topic} resources read the user guide. In the checkout it is the repository's
// docs/; a published package has no checkout around it, so packing copies the pages into the
// package's own docs/ (listed in "files") and unpacking removes the copy, so a stale copy never
// shadows the pages being edited. Usage: node scripts/pack-docs.mjs copy|clean
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('../../../docs', import.meta.url));
const target = fileURLToPath(new URL('../docs', import.meta.url));
const mode = process.argv[2];

if (mode === 'copy') {
  if (!existsSync(source)) throw new Error(`no user guide at ${source}`);
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true, filter: (path) => !path.includes('/.') });
} else if (mode === 'clean') {
  rmSync(target, { recursive: true, force: true });
} else {
  throw new Error('usage: pack-docs.mjs copy|clean');
}
