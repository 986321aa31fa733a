import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { McpLayerError } from '@cloudg/core';

/**
 * The bundled viewer (report/src and Cytoscape.js, built by report/build.mjs into
 * report/build/viewer.js). The path is the same from src/export/html and dist/export/html, two
 * levels below the package root. Read once per process.
 */
const VIEWER = fileURLToPath(new URL('../../../report/build/viewer.js', import.meta.url));

let cached: Promise<string> | undefined;

export function viewerScript(): Promise<string> {
  cached ??= readFile(VIEWER, 'utf8').catch((error: unknown) => {
    cached = undefined;
    throw new McpLayerError(
      'The HTML report viewer is not built in this installation. Run the package build (pnpm build), which bundles it, then call export_report again.',
      { data: { missing: 'report/build/viewer.js' }, cause: error },
    );
  });
  return cached;
}
