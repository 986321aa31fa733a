import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The environment variable naming the docs directory, as in the reference. */
export const DOCS_DIR_ENV = 'CLOUDG_DOCS_DIR';

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/**
 * Where the user guide is: `$CLOUDG_DOCS_DIR` when set, else a `docs/` folder in the package
 * (a published copy), else the repository's `docs/` two levels up (a source checkout, where the
 * pages are written). src/docs and dist/docs are both two levels below the package root.
 * Null when none exists; a set but missing `$CLOUDG_DOCS_DIR` also gives null rather than a
 * silent fallback, so an operator's mistake shows.
 */
export function locateDocsDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const named = env[DOCS_DIR_ENV]?.trim();
  if (named) return isDirectory(named) ? named : null;
  for (const relative of ['../../docs', '../../../../docs']) {
    const candidate = fileURLToPath(new URL(relative, import.meta.url));
    if (isDirectory(candidate)) return candidate;
  }
  return null;
}
