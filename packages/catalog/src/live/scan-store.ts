/**
 * Findings that `run_scanners` added to a dataset, passed on to the other replicas of a shared
 * workspace. The scanners ran once, on one replica (their output and the IAM linter's depend on
 * that replica's programs and the moment), so the others do not repeat them: the scanning
 * replica stores the dataset's findings and compliance results as they are after the scan under
 * the output directory, which replicas share as they share live collections, and appends a
 * `findings` operation naming the file; every other replica puts the stored findings in place
 * of its own for that dataset.
 *
 * A live dataset whose collections are kept for a restart (`--restore-live`) is saved whole after
 * a scan anyway; in a shared workspace that one file, a save of its own (see `saveLiveDataset`),
 * is the one the operation names, rather than a second file of the same findings.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Dataset } from '../dataset/dataset.js';
import { prepareFindings } from '../findings/prepare.js';
import { ComplianceResultSchema, type Finding, FindingSchema } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { liveState } from './state.js';
import { keepLiveDataset, LIVE_DATASET_FORMAT, saveLiveDataset } from './store.js';

/** Stored scan results are kept in `<output_dir>/shared-findings/`. */
export const SCAN_STORE_DIR = 'shared-findings';
const FORMAT = 'cloudg-dataset-findings/1';

/** What a `findings` operation reads: a file of this module's, or a saved live dataset. */
const StoredFindings = z.looseObject({
  format: z.enum([FORMAT, LIVE_DATASET_FORMAT]),
  findings: z.array(FindingSchema),
  compliance: z.array(ComplianceResultSchema).default([]),
});

/** What merging a scan's findings into a dataset did (for `run_scanners`' result). */
export interface ScanMerge {
  before: number;
  after: number;
  /** Findings the dataset did not hold before the merge. */
  fresh: Finding[];
}

/**
 * Merge what a scan found into `dataset` (`merge` does it in place, on the dataset it is given)
 * and keep the result: a live dataset saved again for a restart when the operator asked for
 * that, and in a workspace shared by replicas the findings handed to the others. Returns the
 * merge's outcome and `errors` entries for what failed (the scan itself succeeded).
 *
 * In a shared workspace the scan ran without the log's lease, so the merge waits for it
 * (`Workspace.exclusive`): it then runs on the log's state, as a later scan merges onto what an
 * earlier one left in one process: onto findings another replica's scan, ingest or triage of
 * the dataset changed meanwhile. The findings are stored as they are after it (one file, written
 * under the lease) and the `findings` operation naming the file appended before the lease is
 * given up, so every replica ends with them. A rebuild of this replica meanwhile reloaded the
 * dataset as a new object: the merge goes to that one (`Workspace.current`). When the dataset was
 * unloaded or replaced while the scan ran (on any replica), nothing is merged or shared and
 * `errors` says so, as in one process the results would have gone with the old dataset.
 */
export async function keepScanResults(
  workspace: Workspace,
  dataset: Dataset,
  merge: (target: Dataset) => Promise<ScanMerge>,
  signal?: AbortSignal,
): Promise<{ merged: ScanMerge; errors: string[] }> {
  const persisted = dataset.kind === 'live' && liveState(workspace).persist;
  if (!workspace.shared) {
    const merged = await merge(dataset);
    const unsaved = persisted ? await keepLiveDataset(workspace, dataset, 'run_scanners') : null;
    return { merged, errors: unsaved ? [unsaved] : [] };
  }
  let reached = false;
  let merged: ScanMerge | undefined;
  const refused = (error: unknown) =>
    `store: the new findings are on this replica only, the shared log refused them (${(error as Error).message})`;
  try {
    return await workspace.exclusive(async () => {
      reached = true;
      // The same dataset, or the same one reloaded by a rebuild of this replica.
      const target = workspace.current(dataset);
      if (target === undefined) {
        return {
          merged: { before: dataset.findings.length, after: dataset.findings.length, fresh: [] },
          errors: [
            `store: dataset '${dataset.name}' was unloaded or replaced while the scan ran; its findings were not added (run the scan again)`,
          ],
        };
      }
      merged = await merge(target);
      let path: string;
      try {
        // A live dataset kept for a restart is saved whole anyway: that one file is the one shared.
        path = persisted
          ? await saveLiveDataset(workspace, target, 'run_scanners', { perSave: true })
          : await writeScanFile(workspace, target);
      } catch (error) {
        const what = persisted
          ? 'the dataset could not be saved for a restart and the other replicas'
          : 'the new findings could not be saved for the other replicas';
        return { merged, errors: [`store: ${what} (${(error as Error).message})`] };
      }
      workspace.record({ op: 'findings', dataset: target.name, path });
      return { merged, errors: [] };
    }, signal);
  } catch (error) {
    // Merged, then the append failed: the findings stay on this replica only.
    if (merged !== undefined) return { merged, errors: [refused(error)] };
    // The lease could not be had (the log is away): merged on this replica only.
    if (!reached && !signal?.aborted) return { merged: await merge(dataset), errors: [refused(error)] };
    throw error;
  }
}

/** One file per scan under `shared-findings/`: a replica that applies an older operation late still reads that scan. */
async function writeScanFile(workspace: Workspace, dataset: Dataset): Promise<string> {
  const dir = workspace.outputPath(SCAN_STORE_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${dataset.name}.${Date.now()}-${randomBytes(4).toString('hex')}.json`);
  const temp = `${path}.${process.pid}.tmp`;
  // Server state, like a stored live collection: no tool may read it back.
  workspace.protect(path);
  workspace.protect(temp);
  const body = {
    format: FORMAT,
    dataset: dataset.name,
    saved_at: new Date().toISOString(),
    findings: dataset.findings,
    compliance: dataset.compliance,
  };
  await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
  await rename(temp, path);
  return path;
}

/**
 * Apply a `findings` operation: the stored findings (of a scan, or of a saved live dataset) replace
 * the dataset's, indexed as at load.
 */
export async function applyStoredFindings(workspace: Workspace, name: string, path: string): Promise<void> {
  workspace.protect(path);
  const stored = StoredFindings.parse(JSON.parse(await readFile(path, 'utf8')));
  const dataset = workspace.get(name);
  dataset.findings = stored.findings;
  dataset.compliance = stored.compliance;
  workspace.mutated(dataset);
  await prepareFindings(dataset);
}
