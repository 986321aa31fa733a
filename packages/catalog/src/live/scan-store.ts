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
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
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

/** At most this many files per scan (see `shareSettled`). */
const MAX_SHARES = 3;

/**
 * Keep what `run_scanners` changed in `dataset`: a live dataset saved again for a restart when
 * the operator asked for that, and the findings handed to the other replicas of a shared
 * workspace, with one file where both apply. Returns `errors` entries for what failed (the scan
 * itself succeeded on this replica).
 */
export async function keepScanResults(workspace: Workspace, dataset: Dataset): Promise<string[]> {
  const persisted = dataset.kind === 'live' && liveState(workspace).persist;
  if (persisted && workspace.shared) {
    return shareSettled(
      workspace,
      dataset,
      () => saveLiveDataset(workspace, dataset, 'run_scanners', { perSave: true }),
      'the dataset could not be saved for a restart and the other replicas',
    );
  }
  const errors: string[] = [];
  if (persisted) {
    const unsaved = await keepLiveDataset(workspace, dataset, 'run_scanners');
    if (unsaved) errors.push(unsaved);
  }
  if (workspace.shared)
    errors.push(
      ...(await shareSettled(
        workspace,
        dataset,
        () => writeScanFile(workspace, dataset),
        'the new findings could not be saved for the other replicas',
      )),
    );
  return errors;
}

/**
 * Write `dataset`'s findings (`write` returns the file) and append the `findings` operation
 * naming it. The scan ran without the log's lease, so the append first applies what other
 * replicas did meanwhile; when that changed this dataset (another replica's scan, ingest or
 * triage of it), the file lacks what this replica now holds, and it is written and shared again,
 * so every replica ends with the same findings.
 */
async function shareSettled(
  workspace: Workspace,
  dataset: Dataset,
  write: () => Promise<string>,
  unsaved: string,
): Promise<string[]> {
  for (let attempt = 0; attempt < MAX_SHARES; attempt += 1) {
    const version = dataset.version;
    let path: string;
    try {
      path = await write();
    } catch (error) {
      return [`store: ${unsaved} (${(error as Error).message})`];
    }
    try {
      await workspace.share({ op: 'findings', dataset: dataset.name, path });
    } catch (error) {
      return [
        `store: the new findings are on this replica only, the shared log refused them (${(error as Error).message})`,
      ];
    }
    const current = workspace.has(dataset.name) ? workspace.get(dataset.name) : undefined;
    // Unloaded or replaced meanwhile: the operation fails alike on every replica.
    if (current !== dataset || dataset.version === version) return [];
  }
  return [];
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
