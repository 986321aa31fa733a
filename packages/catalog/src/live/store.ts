import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { Dataset, type InventoryResult } from '../dataset/dataset.js';
import { CloudAssetSchema } from '../model/asset.js';
import { CollectionCoverageSchema } from '../model/coverage.js';
import { NetworkEdgeSchema } from '../model/edge.js';
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
import { OrganizationTopologySchema } from '../model/organization.js';
import type { UnresolvedReference } from '../model/unresolved.js';
import type { Workspace } from '../workspace/workspace.js';
import { removeQuietly, replaceJsonFile } from './json-file.js';
import { liveState } from './state.js';

/**
 * Live collections are kept in `<output_dir>/live/`: `<dataset>.json`, or in a shared workspace
 * one file per save, `<dataset>.<milliseconds>-<8 hex>.json` (see `saveLiveDataset`).
 */
export const LIVE_STORE_DIR = 'live';
/** `<dataset>.<milliseconds>-<8 hex>.json`: a save of its own, never a `--restore-live` `<dataset>.json`. */
export const PER_SAVE = /\.\d+-[0-9a-f]{8}\.json$/;

/** A file name of a save of its own for `name` (what `PER_SAVE` matches): live collections, scans. */
export function perSaveFile(name: string): string {
  return `${name}.${Date.now()}-${randomBytes(4).toString('hex')}.json`;
}
/** The stored collection's format; it holds findings and compliance as a `findings` operation reads them. */
export const LIVE_DATASET_FORMAT = 'cloudg-live-dataset/1';

const StoredLiveDataset = z.looseObject({
  format: z.literal(LIVE_DATASET_FORMAT),
  name: z.string(),
  tool: z.string(),
  saved_at: z.string(),
  providers: z.array(z.string()).default([]),
  regions: z.record(z.string(), z.array(z.string())).default({}),
  assets: z.array(CloudAssetSchema).default([]),
  edges: z.array(NetworkEdgeSchema).default([]),
  findings: z.array(FindingSchema).default([]),
  compliance: z.array(ComplianceResultSchema).default([]),
  coverage: z.array(CollectionCoverageSchema).default([]),
  organization: OrganizationTopologySchema.nullable().default(null),
  unresolved_references: z.array(z.looseObject({})).default([]),
});

/**
 * Write a live dataset where a restart can find it (mode 0600: it is the estate's inventory).
 * Written to a temporary file and renamed, so a crash mid-write never leaves half a file.
 *
 * `<name>.json`, which the next save of that name overwrites (a restart wants the latest), or with
 * `perSave`, for a workspace shared by replicas, a file of this save's own (`<name>.<ms>-<hex>.json`):
 * the shared log names it, and a replica applying the operation later (started later, or rebuilt
 * from a snapshot that keeps a dataset a `snapshot_dataset` copied) must read the dataset as it
 * was then, not as a later collection or scan under that name left it. A restart restores the
 * newest save of each name either way.
 */
export async function saveLiveDataset(
  workspace: Workspace,
  dataset: LiveFields,
  tool: string,
  options: { perSave?: boolean } = {},
): Promise<string> {
  const dir = workspace.outputPath(LIVE_STORE_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = options.perSave ? perSaveFile(dataset.name) : `${dataset.name}.json`;
  const path = join(dir, file);
  const body = {
    format: LIVE_DATASET_FORMAT,
    name: dataset.name,
    tool,
    saved_at: new Date().toISOString(),
    providers: dataset.providers,
    regions: dataset.regions,
    assets: dataset.assets,
    edges: dataset.edges,
    findings: dataset.findings,
    compliance: dataset.compliance,
    coverage: dataset.coverage,
    organization: dataset.organization,
    unresolved_references: dataset.unresolved_references,
  };
  // No tool may read the raw collection back: it is server state, not caller output.
  workspace.protect(path);
  await replaceJsonFile(path, body, (temp) => workspace.protect(temp));
  return path;
}

/** What a saved live dataset holds (a dataset, or one with findings about to be put in place). */
export type LiveFields = Pick<
  Dataset,
  | 'name'
  | 'providers'
  | 'regions'
  | 'assets'
  | 'edges'
  | 'findings'
  | 'compliance'
  | 'coverage'
  | 'organization'
  | 'unresolved_references'
>;

/** The fields of `dataset` a save holds (see `LiveFields`). */
export function liveFields(dataset: Dataset): LiveFields {
  const { name, providers, regions, assets, edges, findings, compliance, coverage, organization } = dataset;
  return {
    name,
    providers,
    regions,
    assets,
    edges,
    findings,
    compliance,
    coverage,
    organization,
    unresolved_references: dataset.unresolved_references,
  };
}

/** How a new live dataset was added, for the other replicas to add it alike. */
export interface LiveShare {
  activate: boolean;
  replace: boolean;
}

/**
 * Save `dataset` when the operator asked for live datasets to survive a restart (`<name>.json`).
 * A failure is returned as an `errors` entry rather than failing a collection that succeeded.
 */
export async function keepLiveDataset(
  workspace: Workspace,
  dataset: Dataset,
  tool: string,
): Promise<string | null> {
  if (!liveState(workspace).persist) return null;
  try {
    await saveLiveDataset(workspace, dataset, tool);
    return null;
  } catch (error) {
    return `store: the dataset could not be saved for a restart (${(error as Error).message})`;
  }
}

/** How a collection becomes a dataset (`addLiveDataset`). */
export interface LiveAddition extends LiveShare {
  /** The result name, checked when the call began. */
  name: string;
  /** False when the tool derived `name` (no name given): another free one may be taken instead. */
  named: boolean;
  /** The collecting tool, recorded in the saved file. */
  tool: string;
}

/**
 * Add a collection as a live dataset and keep it: saved for a restart when the operator asked
 * (`keepLiveDataset`); in a workspace shared by replicas, saved to a file of its own under the
 * output directory (which replicas share) and a `live` operation naming it appended to the log
 * before the call answers (with `--restore-live` that file is also the save a restart finds).
 *
 * In a shared workspace the heavy part runs before the log's lease is taken (second review of
 * issue 20: building and writing a large collection under it held every replica's changes up for
 * seconds): the dataset is built, its indexes too, and the file written under the name the call
 * settled on. Then, where it cannot race another replica's change (`Workspace.exclusive`), the
 * name is checked again on the log's state, so of two collections given one name on two replicas
 * the later is refused with `-32602` exactly as in one process, and one that only got a derived
 * name takes a free one instead (the dataset renamed, its file moved: a rename); the dataset is
 * added and shared at one point of the log's order, so a rebuild cannot drop it and no other
 * replica's operation can come between. Throws what `Workspace.add` throws; a failure to save or
 * share is an `errors` entry.
 */
export async function addLiveDataset(
  workspace: Workspace,
  inventory: Partial<InventoryResult>,
  addition: LiveAddition,
  signal?: AbortSignal,
): Promise<{ dataset: Dataset; unsaved: string | null }> {
  const share = { activate: addition.activate, replace: addition.replace };
  const freeName = () =>
    addition.named || addition.replace ? addition.name : workspace.uniqueName(addition.name);
  if (!workspace.shared) {
    const dataset = workspace.addInventory(inventory, freeName(), share);
    return { dataset, unsaved: await keepLiveDataset(workspace, dataset, addition.tool) };
  }
  const prepared = new Dataset({ ...inventory, name: freeName(), kind: 'live', source: 'live' });
  // Built now rather than by the first query after the add, which may run under the lease.
  void prepared.indexes;
  const saved = await saveShared(workspace, prepared, addition.tool);
  let reached = false;
  let added: Dataset | undefined;
  let path = typeof saved === 'string' ? saved : undefined;
  try {
    return await workspace.exclusive(async () => {
      reached = true;
      const name = freeName();
      if (name !== prepared.name) {
        workspace.checkName(name, { replace: addition.replace });
        if (path !== undefined) path = await moveSave(workspace, path, prepared.name, name);
        prepared.name = name;
      }
      added = workspace.add(prepared, share);
      if (path === undefined) return { dataset: added, unsaved: (saved as { unsaved: string }).unsaved };
      workspace.record({ op: 'live', path, name: added.name, ...share });
      return { dataset: added, unsaved: null };
    }, signal);
  } catch (error) {
    const why = `the shared log refused it (${(error as Error).message})`;
    // Not in the log: no replica reads the file, and no compaction would delete it.
    if (path !== undefined) await removeQuietly(path);
    // Added, then the append failed: the dataset stays on this replica only.
    if (added !== undefined)
      return { dataset: added, unsaved: `store: the dataset is on this replica only, ${why}` };
    // The lease could not be had (the log is away): kept on this replica, as its own, under a
    // name free now (another collection here may have taken the derived one meanwhile).
    if (!reached && !signal?.aborted) {
      prepared.name = freeName();
      return {
        dataset: workspace.add(prepared, share),
        unsaved: `store: the dataset is on this replica only, ${why}`,
      };
    }
    throw error;
  }
}

/**
 * A per-save file moved to the name its dataset got under the lease. The saved body still names
 * the name asked for: the log's operation names the dataset, and only a restart without a shared
 * log (`restoreLiveDatasets`) reads the body's name.
 */
async function moveSave(workspace: Workspace, path: string, from: string, to: string): Promise<string> {
  const file = basename(path);
  const moved = join(dirname(path), `${to}${file.slice(from.length)}`);
  workspace.protect(moved);
  await rename(path, moved);
  return moved;
}

/** Save a collection for the other replicas: the file, or the `errors` entry when it failed. */
async function saveShared(
  workspace: Workspace,
  dataset: Dataset,
  tool: string,
): Promise<string | { unsaved: string }> {
  try {
    return await saveLiveDataset(workspace, dataset, tool, { perSave: true });
  } catch (error) {
    return {
      unsaved: `store: the dataset could not be saved for the other replicas (${(error as Error).message})`,
    };
  }
}

function inventoryOf(s: z.output<typeof StoredLiveDataset>) {
  return {
    assets: s.assets,
    edges: s.edges,
    findings: s.findings,
    compliance: s.compliance,
    coverage: s.coverage,
    organization: s.organization,
    unresolved_references: s.unresolved_references as unknown as UnresolvedReference[],
    providers: s.providers,
    regions: s.regions,
  };
}

/**
 * Add the live collection another replica stored at `path` (a `live` operation of the shared
 * log) under the name it got there. The file is protected here too: server state, not a dataset.
 */
export async function addStoredLiveDataset(
  workspace: Workspace,
  path: string,
  options: { name: string } & LiveShare,
): Promise<void> {
  workspace.protect(path);
  const stored = StoredLiveDataset.parse(JSON.parse(await readFile(path, 'utf8')));
  workspace.addInventory(inventoryOf(stored), options.name, {
    activate: options.activate,
    replace: options.replace,
  });
}

export interface RestoreOutcome {
  restored: string[];
  /** Files that could not be read back, with the reason (a damaged file never stops start-up). */
  skipped: { file: string; reason: string }[];
}

/**
 * Load every saved live collection into the workspace as a `live` dataset, oldest first, without
 * changing the active dataset unless none is: the newest save of each name. A name already loaded
 * is left alone.
 *
 * In a workspace shared by replicas (call this after `SharedWorkspace.start`), the per-save files
 * (`<name>.<ms>-<hex>.json`) are the log's: the log already made the datasets they hold that are
 * still in effect, and the others were unloaded, replaced or evicted through the log. They are
 * left alone; only `<name>.json` saves (written without a shared log) are restored, as this
 * replica's own.
 */
export async function restoreLiveDatasets(workspace: Workspace): Promise<RestoreOutcome> {
  const dir = workspace.outputPath(LIVE_STORE_DIR);
  const outcome: RestoreOutcome = { restored: [], skipped: [] };
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return outcome;
  }
  for (const file of files) workspace.protect(join(dir, file));
  if (workspace.shared) files = files.filter((f) => !PER_SAVE.test(f));
  const newest = new Map<string, { file: string; saved: z.output<typeof StoredLiveDataset> }>();
  for (const file of files) {
    try {
      const saved = StoredLiveDataset.parse(JSON.parse(await readFile(join(dir, file), 'utf8')));
      const kept = newest.get(saved.name);
      if (!kept || kept.saved.saved_at < saved.saved_at) newest.set(saved.name, { file, saved });
    } catch (error) {
      outcome.skipped.push({
        file,
        reason: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
    }
  }
  const latest = [...newest.values()].sort((a, b) => a.saved.saved_at.localeCompare(b.saved.saved_at));
  for (const { file, saved } of latest) {
    if (workspace.has(saved.name)) continue;
    try {
      workspace.addInventory(inventoryOf(saved), saved.name, { activate: false });
      outcome.restored.push(saved.name);
    } catch (error) {
      outcome.skipped.push({ file, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcome;
}
