import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentsError } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';

/** The documented `subdir` rule: letters, digits, `_ . - /`, at most 200 characters. */
export const SUBDIR_PATTERN = /^[A-Za-z0-9_.\-/]{0,200}$/;

/**
 * The directory an export writes into: `<output_dir>/<subdir>`, resolved (symlinks too) and
 * refused with an access error (-31001) when it leaves the output directory, before any work.
 * The pattern is checked here as well as in the schema, since the schema is the caller's
 * contract while this is the one place that opens paths.
 */
export function exportDirectory(workspace: Workspace, subdir: string): string {
  if (!SUBDIR_PATTERN.test(subdir)) {
    throw new InvalidArgumentsError(
      'subdir may only hold letters, digits and _ . - / (at most 200 characters).',
      {
        data: { field: 'subdir' },
      },
    );
  }
  return workspace.outputPath(subdir);
}

/** Write `files` (name -> text) into `dir`, creating it; returns key -> absolute path. */
export async function writeExportFiles(
  dir: string,
  files: ReadonlyArray<readonly [key: string, name: string, text: string]>,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true });
  const paths: Record<string, string> = {};
  for (const [key, name, text] of files) {
    signal.throwIfAborted();
    const path = join(dir, name);
    await writeFile(path, text, 'utf8');
    paths[key] = path;
  }
  return paths;
}
