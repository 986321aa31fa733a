/**
 * Files a tool wrote for the caller (exports under the workspace output directory) are content
 * the caller receives too, so the checks read them like results: a snapshot of the output
 * directory before a call, and after it every file that is new or changed is captured, JSON
 * parsed (paths name the key that holds a value), anything else as one text.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** Path -> modification time and size of every file under `dir`. */
export type Snapshot = Map<string, string>;

export async function snapshot(dir: string): Promise<Snapshot> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return new Map();
  }
  const out: Snapshot = new Map();
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const s = await stat(path);
    out.set(path, `${s.mtimeMs}:${s.size}`);
  }
  return out;
}

export async function writtenSince(
  dir: string,
  before: Snapshot,
): Promise<[path: string, content: unknown][]> {
  const after = await snapshot(dir);
  const out: [string, unknown][] = [];
  for (const [path, stamp] of after) {
    if (before.get(path) === stamp) continue;
    const text = await readFile(path, 'utf8');
    let content: unknown = text;
    if (path.endsWith('.json')) {
      try {
        content = JSON.parse(text);
      } catch {
        content = text;
      }
    }
    out.push([relative(dir, path), content]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}
