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
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Dataset } from '../dataset/dataset.js';
import { prepareFindings } from '../findings/prepare.js';
import {
  type ComplianceResult,
  ComplianceResultSchema,
  type Finding,
  FindingSchema,
} from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { removeQuietly, replaceJsonFile } from './json-file.js';
import { liveState } from './state.js';
import { keepLiveDataset, LIVE_DATASET_FORMAT, liveFields, perSaveFile, saveLiveDataset } from './store.js';

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

/** A dataset's findings and compliance results with a scan's merged in. */
export interface ScanResults {
  findings: Finding[];
  compliance: ComplianceResult[];
}

/**
 * What a scan found merged onto `target`'s findings as they are (normalised when asked), without
 * changing `target`: the caller applies the result. May take seconds on a large dataset.
 */
export type CombineScan = (target: Dataset) => Promise<ScanResults>;

/** How many times a scan is prepared again, outside the lease, when its dataset changed meanwhile. */
const PREPARE_TRIES = 3;

/**
 * Merge what a scan found into `dataset` (`combine` works the merged findings out) and keep the
 * result: a live dataset saved again for a restart when the operator asked for that, and in a
 * workspace shared by replicas the findings handed to the others. Returns the merge's outcome and
 * `errors` entries for what failed (the scan itself succeeded).
 *
 * In a shared workspace the scan ran without the log's lease, and the heavy part of keeping it
 * runs without it too (second review of issue 20: holding the lease for seconds stops every
 * replica's changes and, past its renewal, loses it): the merge onto the dataset as it is now
 * (normalisation over every finding) and the file every replica reads are made first. Then, where
 * it cannot race another replica (`Workspace.exclusive`), the dataset is checked to be as it was
 * (the same object or the same one reloaded by a rebuild, `Workspace.current`, at the same
 * version): the prepared findings are put in place and the `findings` operation naming the file
 * appended. When another replica's scan, ingest or triage changed the dataset meanwhile, nothing
 * is appended and the merge is prepared again onto what it now holds, up to three times; the last
 * time, the scan's own new findings are added under the lease onto the dataset's findings (no
 * normalisation over them all) and the file written there. When the dataset was unloaded or
 * replaced while the scan ran (on any replica), nothing is merged or shared and `errors` says
 * so, as in one process the results would have gone with the old dataset.
 */
export async function keepScanResults(
  workspace: Workspace,
  dataset: Dataset,
  combine: CombineScan,
  signal?: AbortSignal,
): Promise<{ merged: ScanMerge; errors: string[] }> {
  const persisted = dataset.kind === 'live' && liveState(workspace).persist;
  if (!workspace.shared) {
    const merged = putInPlace(workspace, dataset, await combine(dataset));
    const unsaved = persisted ? await keepLiveDataset(workspace, dataset, 'run_scanners') : null;
    return { merged, errors: unsaved ? [unsaved] : [] };
  }
  const gone = {
    merged: { before: dataset.findings.length, after: dataset.findings.length, fresh: [] },
    errors: [
      `store: dataset '${dataset.name}' was unloaded or replaced while the scan ran; its findings were not added (run the scan again)`,
    ],
  };
  const unsavedError = (error: unknown) => {
    const what = persisted
      ? 'the dataset could not be saved for a restart and the other replicas'
      : 'the new findings could not be saved for the other replicas';
    return `store: ${what} (${(error as Error).message})`;
  };
  for (let attempt = 1; ; attempt += 1) {
    const base = workspace.current(dataset);
    if (base === undefined) return gone;
    const seen = { version: base.version, findings: base.findings };
    const results = await combine(base);
    const outcome = mergeOutcome(base, results);
    const last = attempt >= PREPARE_TRIES;
    let path: string;
    try {
      path = await storeResults(workspace, base, results, persisted);
    } catch (error) {
      // Not shared: the findings go on this replica only, as when the log refuses them.
      return applyAlone(workspace, dataset, seen.findings, results, unsavedError(error));
    }
    const prepared = path;
    let named: string | undefined;
    let reached = false;
    let merged: ScanMerge | undefined;
    try {
      const kept = await workspace.exclusive(async () => {
        reached = true;
        const target = workspace.current(dataset);
        if (target === undefined) return gone;
        const same = target === base && target.version === seen.version && target.findings === seen.findings;
        if (same) {
          merged = putInPlace(workspace, target, results, outcome);
        } else if (!last) {
          return undefined;
        } else {
          // Only this scan's new findings go onto what the dataset holds (no normalisation over
          // them all); the file of the whole findings is written here, once in three tries.
          merged = putInPlace(workspace, target, addFresh(target, seen.findings, results));
          try {
            path = await storeResults(workspace, target, target, persisted);
          } catch (error) {
            return { merged, errors: [unsavedError(error)] };
          }
        }
        workspace.record({ op: 'findings', dataset: target.name, path });
        named = path;
        return { merged, errors: [] as string[] };
      }, signal);
      // The prepared file when no operation names it (gone, changed, written again): no one reads it.
      if (named !== prepared) await removeQuietly(prepared);
      if (kept !== undefined) return kept;
      // Changed meanwhile: prepared again onto the dataset as it now is.
    } catch (error) {
      const refused = `store: the new findings are on this replica only, the shared log refused them (${(error as Error).message})`;
      // Not in the log: no replica reads the file(s), and no compaction would delete them.
      await removeQuietly(prepared);
      if (path !== prepared) await removeQuietly(path);
      // Merged, then the append failed: the findings stay on this replica only.
      if (merged !== undefined) return { merged, errors: [refused] };
      // The lease could not be had (the log is away): merged on this replica only.
      if (!reached && !signal?.aborted)
        return applyAlone(workspace, dataset, seen.findings, results, refused);
      throw error;
    }
  }
}

/**
 * Merge onto this replica's dataset only (the log away, or the file not written): onto the
 * dataset standing for the scanned one now (`Workspace.current`), never a detached object.
 */
async function applyAlone(
  workspace: Workspace,
  dataset: Dataset,
  seen: readonly Finding[],
  results: ScanResults,
  why: string,
): Promise<{ merged: ScanMerge; errors: string[] }> {
  const target = workspace.current(dataset);
  if (target === undefined)
    return {
      merged: { before: dataset.findings.length, after: dataset.findings.length, fresh: [] },
      errors: [why, `store: dataset '${dataset.name}' was unloaded or replaced while the scan ran`],
    };
  // `results` were merged onto `seen`: onto anything else only the scan's new findings go.
  const fresh = target.findings === seen ? results : addFresh(target, seen, results);
  return { merged: putInPlace(workspace, target, fresh), errors: [why] };
}

/** What putting `results` in place of `target`'s findings changes (worked out before the lease). */
function mergeOutcome(target: Dataset, results: ScanResults): ScanMerge {
  const beforeIds = new Set(target.findings.map((f) => f.id));
  const fresh = results.findings.filter((f) => !beforeIds.has(f.id));
  return { before: target.findings.length, after: results.findings.length, fresh };
}

/** Put merged findings in place of `target`'s; what changed, for the tool's result. */
function putInPlace(
  workspace: Workspace,
  target: Dataset,
  results: ScanResults,
  outcome = mergeOutcome(target, results),
): ScanMerge {
  target.findings = results.findings;
  target.compliance = results.compliance;
  workspace.mutated(target);
  return outcome;
}

/**
 * `target`'s findings and compliance plus what `results` (prepared onto `seen`, the findings the
 * dataset held then) added: findings whose id neither `seen` nor `target` holds, compliance results
 * for controls `target` has none for.
 */
function addFresh(target: Dataset, seen: readonly Finding[], results: ScanResults): ScanResults {
  const known = new Set([...seen, ...target.findings].map((f) => f.id));
  const controls = new Set(target.compliance.map(controlKey));
  return {
    findings: [...target.findings, ...results.findings.filter((f) => !known.has(f.id))],
    compliance: [...target.compliance, ...results.compliance.filter((c) => !controls.has(controlKey(c)))],
  };
}

function controlKey(c: ComplianceResult): string {
  return `${c.framework}\u0000${c.control_id}`;
}

/** The file a `findings` operation names: the dataset saved whole (kept for a restart) or the scan's file. */
function storeResults(
  workspace: Workspace,
  dataset: Dataset,
  results: ScanResults,
  persisted: boolean,
): Promise<string> {
  // A live dataset kept for a restart is saved whole anyway: that one file is the one shared.
  return persisted
    ? saveLiveDataset(workspace, { ...liveFields(dataset), ...results }, 'run_scanners', { perSave: true })
    : writeScanFile(workspace, dataset.name, results);
}

/** One file per scan under `shared-findings/`: a replica that applies an older operation late still reads that scan. */
async function writeScanFile(workspace: Workspace, name: string, results: ScanResults): Promise<string> {
  const dir = workspace.outputPath(SCAN_STORE_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, perSaveFile(name));
  // Server state, like a stored live collection: no tool may read it back.
  workspace.protect(path);
  const body = {
    format: FORMAT,
    dataset: name,
    saved_at: new Date().toISOString(),
    findings: results.findings,
    compliance: results.compliance,
  };
  await replaceJsonFile(path, body, (temp) => workspace.protect(temp));
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
