/**
 * The files a shared workspace's log names that the server itself wrote: each live collection's
 * save and each scan's results, one file per save under the output directory (see
 * `saveLiveDataset` and `keepScanResults`). A compaction drops the operations of datasets since
 * unloaded, replaced or evicted; no replica reads their files again (one behind the compaction
 * rebuilds from the snapshot), so the compacting replica deletes them instead of letting every
 * collection and scan pile up on the shared volume.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { WorkspaceOperation } from '../workspace/operations.js';
import type { Workspace } from '../workspace/workspace.js';
import { SCAN_STORE_DIR } from './scan-store.js';
import { LIVE_STORE_DIR, PER_SAVE } from './store.js';

/** The file the server stored for an operation, if it names one (never a path a caller chose). */
export function storedFile(operation: WorkspaceOperation): string | undefined {
  return operation.op === 'live' || operation.op === 'findings' ? operation.path : undefined;
}

/**
 * Delete the files `dropped` (operations a compaction left out) named that `kept` (the snapshot)
 * does not: only saves of their own in this workspace's `live/` and `shared-findings/`
 * directories, whatever an operation says. Best effort; returns how many went.
 */
export async function removeDroppedFiles(
  workspace: Workspace,
  all: readonly WorkspaceOperation[],
  kept: readonly WorkspaceOperation[],
): Promise<number> {
  const keep = new Set(kept.map(storedFile));
  const dirs = new Set([workspace.outputPath(LIVE_STORE_DIR), workspace.outputPath(SCAN_STORE_DIR)]);
  let removed = 0;
  for (const path of new Set(all.map(storedFile))) {
    if (path === undefined || keep.has(path)) continue;
    if (!dirs.has(dirname(path)) || !PER_SAVE.test(basename(path))) continue;
    try {
      await rm(path, { force: true });
      removed += 1;
    } catch {
      // A file that cannot be deleted stays behind; no operation names it any more.
    }
  }
  return removed;
}
