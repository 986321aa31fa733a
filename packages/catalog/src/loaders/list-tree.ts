import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Bounds of a recursive listing, so a directory tree cannot stall a load. */
export const MAX_TREE_DEPTH = 8;
export const MAX_TREE_FILES = 10_000;

/**
 * The files below `dir`, as sorted paths relative to it (`/`-separated). Symbolic links to
 * directories are not followed (no cycles); a link to a file is listed and judged by the file
 * access checks when it is opened. Stops descending at `MAX_TREE_DEPTH` and after
 * `MAX_TREE_FILES` entries; `truncated` says so.
 */
export async function listTree(
  dir: string,
  signal?: AbortSignal,
): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  const walk = async (rel: string, depth: number): Promise<void> => {
    signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await readdir(rel ? join(dir, rel) : dir, { withFileTypes: true });
    } catch {
      return; // unreadable subdirectory: nothing to list there
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= MAX_TREE_FILES) {
        truncated = true;
        return;
      }
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_TREE_DEPTH) await walk(path, depth + 1);
        else truncated = true;
      } else if (entry.isFile() || entry.isSymbolicLink()) files.push(path);
    }
  };
  await walk('', 0);
  return { files, truncated };
}
