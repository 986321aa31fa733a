// Bundles the report viewer (report/src) and Cytoscape.js into one minified script, which the
// HTML exporter inlines into every report.html: the page needs no network when it is opened.
// Run by the package's build and test scripts; the output is generated, not committed.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outfile = join(here, 'build', 'viewer.js');
await mkdir(dirname(outfile), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome110', 'firefox110', 'safari16'],
  outfile,
  legalComments: 'eof',
  logLevel: 'warning',
});
