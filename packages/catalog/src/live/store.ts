import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Dataset } from '../dataset/dataset.js';
import { CloudAssetSchema } from '../model/asset.js';
import { CollectionCoverageSchema } from '../model/coverage.js';
import { NetworkEdgeSchema } from '../model/edge.js';
import { ComplianceResultSchema, FindingSchema } from '../model/finding.js';
import { OrganizationTopologySchema } from '../model/organization.js';
import type { UnresolvedReference } from '../model/unresolved.js';
import type { Workspace } from '../workspace/workspace.js';
import { liveState } from './state.js';

/**
 * Live collections are kept in `<output_dir>/live/`: `<dataset>.json`, or in a shared workspace
 * one file per save, `<dataset>.<milliseconds>-<8 hex>.json` (see `saveLiveDataset`).
 */
export const LIVE_STORE_DIR = 'live';
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
  dataset: Dataset,
  tool: string,
  options: { perSave?: boolean } = {},
): Promise<string> {
  const dir = workspace.outputPath(LIVE_STORE_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = options.perSave
    ? `${dataset.name}.${Date.now()}-${randomBytes(4).toString('hex')}.json`
    : `${dataset.name}.json`;
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
  const temp = `${path}.${process.pid}.tmp`;
  // No tool may read the raw collection back: it is server state, not caller output.
  workspace.protect(path);
  workspace.protect(temp);
  await writeFile(temp, JSON.stringify(body), { mode: 0o600 });
  await rename(temp, path);
  return path;
}

/** How a new live dataset was added, for the other replicas to add it alike. */
export interface LiveShare {
  activate: boolean;
  replace: boolean;
}

/**
 * Save `dataset` when the operator asked for live datasets to survive a restart, or when the
 * workspace is shared by replicas and `share` says how it was added: then it is saved under the
 * output directory (which replicas share) and a `live` operation naming the file is appended to
 * the shared log before the call answers. A failure is returned as an `errors` entry rather than
 * failing a collection that succeeded.
 */
export async function keepLiveDataset(
  workspace: Workspace,
  dataset: Dataset,
  tool: string,
  share?: LiveShare,
): Promise<string | null> {
  const sharing = share !== undefined && workspace.shared;
  if (!liveState(workspace).persist && !sharing) return null;
  let path: string;
  try {
    path = await saveLiveDataset(workspace, dataset, tool, { perSave: sharing });
  } catch (error) {
    const why = sharing ? 'for the other replicas' : 'for a restart';
    return `store: the dataset could not be saved ${why} (${(error as Error).message})`;
  }
  if (!sharing) return null;
  try {
    await workspace.share({ op: 'live', path, name: dataset.name, ...share });
    return null;
  } catch (error) {
    return `store: the dataset is on this replica only, the shared log refused it (${(error as Error).message})`;
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
 * changing the active dataset unless none is: the newest save of each name (a shared workspace
 * keeps one file per save). A name already loaded is left alone.
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
  const stored: z.output<typeof StoredLiveDataset>[] = [];
  for (const file of files) {
    try {
      const parsed = StoredLiveDataset.parse(JSON.parse(await readFile(join(dir, file), 'utf8')));
      stored.push(parsed);
    } catch (error) {
      outcome.skipped.push({
        file,
        reason: error instanceof Error ? error.message.slice(0, 200) : String(error),
      });
    }
  }
  const newest = new Map<string, z.output<typeof StoredLiveDataset>>();
  for (const s of stored) {
    const kept = newest.get(s.name);
    if (!kept || kept.saved_at < s.saved_at) newest.set(s.name, s);
  }
  const latest = [...newest.values()].sort((a, b) => a.saved_at.localeCompare(b.saved_at));
  for (const file of files) workspace.protect(join(dir, file));
  for (const s of latest) {
    if (workspace.has(s.name)) continue;
    try {
      workspace.addInventory(inventoryOf(s), s.name, { activate: false });
      outcome.restored.push(s.name);
    } catch (error) {
      outcome.skipped.push({
        file: `${s.name}.json`,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return outcome;
}
