import { resolve } from 'node:path';
import type { IdentifierSource } from '@cloudg/core';
import { defaultCloudgConfig } from '../config/load.js';
import type { CloudgConfig } from '../config/schema.js';
import { Dataset, type DatasetInit, type InventoryResult } from '../dataset/dataset.js';
import { datasetIdentifiers } from '../dataset/identifiers.js';
import { type DatasetListing, datasetListing } from '../dataset/summary.js';
import { prepareFindings } from '../findings/prepare.js';
import { SuppressionStore } from '../findings/suppression-store.js';
import type { FileAccess } from '../loaders/file-access.js';
import { type LoadKind, type LoadOutcome, loadPath } from '../loaders/load.js';
import { DEFAULT_MAX_FILE_BYTES } from '../loaders/read-file.js';
import { clientRootsWithin } from './client-roots.js';
import { type DatasetDiff, diffDatasets } from './diff.js';
import { DatasetExistsError, NoDatasetError } from './errors.js';
import { assertDatasetName, freeName } from './names.js';
import { applyOperation, type WorkspaceOperation } from './operations.js';
import {
  ALLOWED_ROOTS_ENV,
  checkPathInRoots,
  isInside,
  loaderAccess,
  opensEverything,
  outputPathUnder,
  ProtectedFiles,
  protectedFile,
  realPathLenient,
  resolveAllowedRoots,
} from './roots.js';

/** The kinds of change the workspace reports, matching the layer's `notifyChange`. */
/**
 * Told of each change to pass on (see `Workspace.recordOperations`); a promise settles once the
 * change is in the shared log (`Workspace.share` waits for it).
 */
export type OperationRecorder = (operation: WorkspaceOperation) => void | Promise<void>;

/**
 * Runs a change as one step of a shared workspace's order (see `Workspace.exclusive`): after
 * every earlier change of any replica, before any later one, its recorded operations appended
 * before it settles.
 */
export type ExclusiveRunner = <T>(change: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

export type WorkspaceChangeKind = 'resources' | 'resource';
export type WorkspaceChangeListener = (kind: WorkspaceChangeKind, uri: string | undefined) => void;

export const WORKSPACE_URI = 'cloudg://workspace';
/** How many names of datasets no longer loaded stay known identifiers. */
const RETIRED_NAMES = 256;
export const DATASETS_URI = 'cloudg://datasets';
export function datasetSummaryUri(name: string): string {
  return `cloudg://datasets/${name}/summary`;
}

export interface WorkspaceOptions {
  /**
   * The cloudg config (`loadCloudgConfig`, `parseCloudgConfig`): providers, credentials and rate
   * limits for the live tools, and the report directory. Default `defaultCloudgConfig()`.
   */
  config?: CloudgConfig;
  /**
   * Directories tools may read (default: `CLOUDG_MCP_ALLOWED_ROOTS`, else the working directory
   * and the output directory, leaving out `/` and the home directory).
   */
  allowedRoots?: readonly string[];
  /**
   * Where export tools write (default: the config's `report.output_dir`, else `<cwd>/reports`);
   * added to the roots when outside them.
   */
  outputDir?: string;
  /**
   * Where state that must outlive the process is kept (the findings' suppressions): wins over the
   * config's `state.dir`. Default none: suppressions live in memory only.
   */
  stateDir?: string;
  /** Beyond this many datasets the oldest inactive one is evicted (default 16). */
  maxDatasets?: number;
  /** Largest file a loader will read (default 512 MB). */
  maxFileBytes?: number;
  /** Providers the server is configured for, shown by `status()` (default: the config's `providers`). */
  providersConfigured?: readonly string[];
  /**
   * Files no load may read, even inside an allowed root or through a link: the server's own
   * audit log and vault. More can be added with `protect()`.
   */
  protectedPaths?: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface LoadDatasetOptions {
  name?: string;
  kind?: LoadKind;
  activate?: boolean;
  normalise?: boolean;
  replace?: boolean;
}

export interface WorkspaceStatus {
  active_dataset: string | null;
  datasets: DatasetListing[];
  allowed_roots: string[];
  output_dir: string;
  providers_configured: string[];
  next_steps?: string[];
}

/**
 * The in-memory state every request shares: named datasets, the active one, the directories
 * tools may touch and the change listeners. The layer hands it to handlers as `ctx.app`.
 *
 * Every operation validates everything it can (name, path, file contents) before it changes
 * anything, so a failure leaves the workspace exactly as it was.
 */
export class Workspace implements IdentifierSource {
  /** The cloudg config (frozen); the live tools read credentials and `ratelimit` from it. */
  readonly config: CloudgConfig;
  /** The directories tools may read (see `useClientRoots` for a client's folders). */
  get allowedRoots(): readonly string[] {
    return this.#roots;
  }
  #roots: readonly string[];
  /** The roots the operator named (option or environment), which a client's roots must lie inside. */
  readonly #operatorRoots: readonly string[] | undefined;
  /** The roots as configured, restored when the client's roots leave nothing usable. */
  readonly #configuredRoots: readonly string[];
  readonly outputDir: string;
  readonly maxDatasets: number;
  readonly maxFileBytes: number;
  readonly providersConfigured: readonly string[];
  /** Suppression decisions, kept across restarts when a state directory is configured. */
  readonly suppressions: SuppressionStore;
  #datasets = new Map<string, Dataset>();
  #active: string | null = null;
  #listeners = new Set<WorkspaceChangeListener>();
  readonly #protected = new ProtectedFiles();
  readonly #cwd: string;

  /**
   * Make the folders a client opened (`roots/list` URIs) the allowed roots, for an operator who
   * turned that on (stdio only: one user, one client). Inside the operator's roots when they named
   * any, never a filesystem root or the home directory; the output directory stays a root. With
   * nothing usable left, the configured roots apply again. Returns the roots now in force.
   */
  useClientRoots(uris: readonly string[]): readonly string[] {
    const roots = clientRootsWithin(uris, this.#operatorRoots);
    if (roots.length === 0) {
      this.#roots = this.#configuredRoots;
    } else {
      if (!roots.some((r) => isInside(this.outputDir, r)) && !opensEverything(this.outputDir))
        roots.push(this.outputDir);
      this.#roots = Object.freeze(roots);
    }
    return this.#roots;
  }

  constructor(options: WorkspaceOptions = {}) {
    const cwd = options.cwd ?? process.cwd();
    this.#cwd = cwd;
    this.config = options.config ?? defaultCloudgConfig();
    // The operator's explicit option wins over the config file, which wins over the default.
    this.outputDir = realPathLenient(
      resolve(cwd, options.outputDir ?? this.config.report.output_dir ?? 'reports'),
    );
    const roots = resolveAllowedRoots({
      allowedRoots: options.allowedRoots,
      env: options.env,
      cwd,
      outputDir: this.outputDir,
    });
    // An output directory outside the roots becomes one, unless it is too broad (see opensEverything):
    // a config's `report.output_dir: ~` must not open every file the user owns.
    if (!roots.some((r) => isInside(this.outputDir, r)) && !opensEverything(this.outputDir))
      roots.push(this.outputDir);
    this.#roots = Object.freeze(roots);
    this.#configuredRoots = this.#roots;
    const named = options.allowedRoots?.length || (options.env ?? process.env)[ALLOWED_ROOTS_ENV]?.trim();
    this.#operatorRoots = named ? roots.filter((r) => r !== this.outputDir) : undefined;
    this.maxDatasets = Math.max(1, options.maxDatasets ?? 16);
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.providersConfigured = Object.freeze([...(options.providersConfigured ?? this.config.providers)]);
    for (const path of options.protectedPaths ?? []) this.protect(path);
    const stateDir = options.stateDir ?? this.config.state.dir;
    this.suppressions = new SuppressionStore(stateDir ? realPathLenient(resolve(cwd, stateDir)) : null);
    // The state file holds triage decisions, not data to load.
    if (this.suppressions.path) this.protect(this.suppressions.path);
    this.suppressions.onRecord((dataset, decisions) =>
      this.#record({ op: 'triage', dataset, decisions: [...decisions] }),
    );
  }

  // ---- operations (a workspace shared by replicas) ---------------------------------------

  #recorder: OperationRecorder | undefined;
  #replaying = 0;

  /**
   * Hand every change made through this workspace's methods (load, use, unload, snapshot, triage)
   * to `recorder`, so a shared workspace can pass it on to the other replicas. Changes made by
   * `replay` are not handed over: they came from elsewhere. Returns a function that stops it.
   */
  recordOperations(recorder: OperationRecorder): () => void {
    this.#recorder = recorder;
    return () => {
      if (this.#recorder === recorder) this.#recorder = undefined;
    };
  }

  /**
   * Do an operation another replica did (see `applyOperation`), without recording it again.
   * `silent`: without telling this workspace's change listeners, for a deployment whose change
   * fan-out already carried the replica's own announcement to every listener.
   */
  async replay(operation: WorkspaceOperation, options: { silent?: boolean } = {}): Promise<void> {
    this.#replaying += 1;
    if (options.silent) this.#silent += 1;
    try {
      await applyOperation(this, operation);
    } finally {
      this.#replaying -= 1;
      if (options.silent) this.#silent -= 1;
    }
  }

  #silent = 0;

  /**
   * Record a change made to the workspace by code other than its own methods (`ingest_reports`),
   * in a form `replay` repeats; nothing without a recorder.
   */
  record(operation: WorkspaceOperation): void {
    this.#record(operation);
  }

  #record(operation: WorkspaceOperation): void {
    // Sharing a change is best effort here: a failed append is the shared workspace's to report.
    if (this.#replaying === 0) void Promise.resolve(this.#recorder?.(operation)).catch(() => {});
  }

  /** True while a shared workspace records this workspace's changes for other replicas. */
  get shared(): boolean {
    return this.#recorder !== undefined;
  }

  /**
   * Record a change made by a call that does not hold the shared log's lease (a live collection,
   * which must not hold it for minutes), and wait until it is in the log, so a caller told the
   * dataset's name, on any replica, finds it. Nothing without a recorder. Not skipped while a
   * replay runs: only tools call it, never `applyOperation`. An `exclusive` change (see there):
   * prefer making the change itself in an `exclusive` section, so it is decided on the log's state.
   */
  async share(operation: WorkspaceOperation): Promise<void> {
    const recorder = this.#recorder;
    if (recorder) await this.exclusive(async () => recorder(operation));
  }

  #exclusive: ExclusiveRunner | undefined;

  /**
   * Run `change` where it cannot race another replica's changes: in a shared workspace, under
   * the log's lease, after applying what the other replicas did, with the operations it records
   * appended before this settles (so it decides on the state one process would have at that
   * point: a name taken meanwhile, a dataset replaced or scanned meanwhile). For calls that hold
   * no lease while they work (live collection, scans): they do the slow part first and only
   * their change to the workspace in here. Without a shared workspace it just runs. `signal`
   * stops the wait for the lease.
   */
  exclusive<T>(change: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#exclusive ? this.#exclusive(change, signal) : change();
  }

  #sameGeneration: ((a: Dataset, b: Dataset) => boolean) | undefined;

  /**
   * The dataset standing for `dataset` now: itself while it holds its name; in a shared
   * workspace also the same dataset reloaded as a new object by a rebuild from the log's
   * snapshot; undefined once it was unloaded or replaced.
   */
  current(dataset: Dataset): Dataset | undefined {
    const now = this.#datasets.get(dataset.name);
    if (now === undefined) return undefined;
    return now === dataset || this.#sameGeneration?.(dataset, now) ? now : undefined;
  }

  /** Let a shared workspace tell two objects of one dataset apart from two datasets (`current`). */
  delegateGenerations(same: (a: Dataset, b: Dataset) => boolean): () => void {
    this.#sameGeneration = same;
    return () => {
      if (this.#sameGeneration === same) this.#sameGeneration = undefined;
    };
  }

  /** Let a shared workspace run `exclusive` changes (see there); returns a function that stops it. */
  delegateExclusive(runner: ExclusiveRunner): () => void {
    this.#exclusive = runner;
    return () => {
      if (this.#exclusive === runner) this.#exclusive = undefined;
    };
  }

  // ---- inspection -------------------------------------------------------------------------

  get activeName(): string | null {
    return this.#active;
  }

  get size(): number {
    return this.#datasets.size;
  }

  has(name: string): boolean {
    return this.#datasets.has(name);
  }

  /** Names in the order the datasets were added. */
  names(): string[] {
    return [...this.#datasets.keys()];
  }

  datasets(): Dataset[] {
    return [...this.#datasets.values()];
  }

  /** The named dataset, or the active one for an empty name. */
  get(name?: string | null): Dataset {
    if (!name) {
      const active = this.#active === null ? undefined : this.#datasets.get(this.#active);
      if (!active) throw NoDatasetError.nothingLoaded();
      return active;
    }
    const found = this.#datasets.get(name);
    if (!found) {
      if (this.#datasets.size === 0) throw NoDatasetError.nothingLoaded();
      throw NoDatasetError.unknown(name, this.names());
    }
    return found;
  }

  status(): WorkspaceStatus {
    const out: WorkspaceStatus = {
      active_dataset: this.#active,
      datasets: this.datasets().map(datasetListing),
      allowed_roots: [...this.allowedRoots],
      output_dir: this.outputDir,
      providers_configured: [...this.providersConfigured],
    };
    if (this.#datasets.size === 0) {
      out.next_steps = [
        "load_dataset(path='<dir with inventory-map.json or findings.json>')",
        `map_inventory(providers=[${this.providersConfigured.map((p) => `'${p}'`).join(', ')}]) to collect live data (needs credentials)`,
      ];
    }
    return out;
  }

  listDatasets(): {
    active_dataset: string | null;
    datasets: (DatasetListing & { active: boolean })[];
    total: number;
  } {
    return {
      active_dataset: this.#active,
      datasets: this.datasets().map((d) => ({ ...datasetListing(d), active: d.name === this.#active })),
      total: this.#datasets.size,
    };
  }

  // ---- identifiers (for the policy: see dataset/identifiers.ts) --------------------------

  #identifierKey = '';
  #identifierRevision = 0;
  /** Names of datasets unloaded, replaced or evicted, most recent last (see `#retire`). */
  #retiredNames: string[] = [];
  #retiredTotal = 0;

  /**
   * Take a dataset out. Its name stays a known identifier: the request that unloads it, and any
   * later one that names it, must not show it in clear under a pseudonymising policy.
   */
  #retire(dataset: Dataset): void {
    this.#datasets.delete(dataset.name);
    this.#retiredTotal += 1;
    this.#retiredNames = [...this.#retiredNames.filter((n) => n !== dataset.name), dataset.name].slice(
      -RETIRED_NAMES,
    );
  }

  /** Changes whenever a dataset is added, removed, renamed or changed in place. */
  get identifierRevision(): number {
    let key = `${this.#retiredTotal}\u0001`;
    for (const d of this.#datasets.values()) key += `${d.loadId}\u0000${d.version}\u0000${d.name}\u0001`;
    if (key !== this.#identifierKey) {
      this.#identifierKey = key;
      this.#identifierRevision += 1;
    }
    return this.#identifierRevision;
  }

  /** Every loaded dataset's name and identifiers (see `datasetIdentifiers`). */
  *knownIdentifiers(): Generator<readonly [string, string]> {
    for (const d of this.#datasets.values()) yield [d.name, 'dataset_name'];
    for (const d of this.#datasets.values()) yield* datasetIdentifiers(d);
    for (const name of this.#retiredNames) yield [name, 'dataset_name'];
  }

  // ---- names ------------------------------------------------------------------------------

  /** Validate a new dataset's name before any work is done. */
  checkName(name: string, options: { replace?: boolean } = {}): void {
    assertDatasetName(name);
    if (!options.replace && this.#datasets.has(name))
      throw new DatasetExistsError(name, this.uniqueName(name));
  }

  /** A free name derived from `base`. */
  uniqueName(base: string): string {
    return freeName(base, (n) => this.#datasets.has(n));
  }

  // ---- paths ------------------------------------------------------------------------------

  /**
   * Resolve a caller's path inside the allowed roots (AccessDeniedError -31001 otherwise, and for
   * a protected file).
   */
  checkPath(path: string, options: { mustExist?: boolean } = {}): string {
    const real = checkPathInRoots(path, this.allowedRoots, options.mustExist ?? true);
    if (this.#protected.matches(real)) throw protectedFile(path);
    return real;
  }

  /**
   * Never let a load read this file (a relative path resolves against the working directory):
   * for the server's own audit log and vault, which tools must not read back.
   */
  protect(path: string): void {
    this.#protected.add(resolve(this.#cwd, path));
  }

  /** A write target under the output directory. */
  outputPath(subpath = ''): string {
    return outputPathUnder(this.outputDir, subpath);
  }

  // ---- changes ----------------------------------------------------------------------------

  /** Listen to change events; returns a function that removes the listener. */
  onChange(listener: WorkspaceChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  notify(kind: WorkspaceChangeKind, uri?: string): void {
    if (this.#silent > 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(kind, uri);
      } catch {
        // A failing listener must not break the operation that changed the workspace.
      }
    }
  }

  #notifyDataset(name: string, listChanged: boolean): void {
    if (listChanged) this.notify('resources');
    this.notify('resource', WORKSPACE_URI);
    this.notify('resource', DATASETS_URI);
    if (this.#datasets.has(name)) this.notify('resource', datasetSummaryUri(name));
  }

  /**
   * Record an in-place change to a dataset (findings suppressed, ingested...). `keep` names the
   * derived structures the change leaves valid (see `Dataset.touch`); by default all are rebuilt.
   */
  mutated(dataset: Dataset, options: { keep?: (key: string) => boolean } = {}): void {
    // Findings added in place (ingested reports) get the decisions recorded for them.
    this.suppressions.apply(dataset);
    dataset.touch(options.keep);
    this.#notifyDataset(dataset.name, false);
  }

  // ---- changing the set of datasets ------------------------------------------------------

  /**
   * Load a file or directory as a dataset. The path must be inside an allowed root; the
   * explicit name is checked before anything is read.
   */
  async load(path: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
    if (options.name) this.checkName(options.name, { replace: options.replace });
    const real = this.checkPath(path);
    const dataset = await this.#loadResolved(real, options, loaderAccess(this.allowedRoots, this.#protected));
    this.#record({
      op: 'load',
      path: real,
      name: dataset.name,
      kind: options.kind ?? 'auto',
      normalise: options.normalise ?? true,
      activate: options.activate ?? true,
      replace: options.replace ?? false,
    });
    return dataset;
  }

  /**
   * Load a dataset the operator chose (server start-up `--dataset`): no root check, because the
   * operator, not a model, picked the path. The protected files stay refused.
   */
  async preload(path: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
    if (options.name) this.checkName(options.name, { replace: options.replace });
    const dataset = await this.#loadResolved(
      realPathLenient(path),
      options,
      loaderAccess(undefined, this.#protected),
    );
    // Indexed as `load_dataset` indexes it, so the first findings call on a dataset the operator
    // preloaded (or another replica loaded and this one replays) answers in its usual time.
    await prepareFindings(dataset);
    return dataset;
  }

  /**
   * Parse a file or directory inside the allowed roots without adding a dataset (for
   * `ingest_reports`), with the same path and file-access checks as `load`. The outcome's
   * `source` is the resolved path.
   */
  async parsePath(
    path: string,
    options: { kind?: LoadKind; normalise?: boolean; signal?: AbortSignal } = {},
  ): Promise<LoadOutcome> {
    const real = this.checkPath(path);
    return loadPath(real, {
      kind: options.kind ?? 'auto',
      normalise: options.normalise ?? true,
      maxBytes: this.maxFileBytes,
      access: loaderAccess(this.allowedRoots, this.#protected),
      signal: options.signal,
    });
  }

  async #loadResolved(real: string, options: LoadDatasetOptions, access: FileAccess): Promise<Dataset> {
    const outcome = await loadPath(real, {
      kind: options.kind ?? 'auto',
      normalise: options.normalise ?? true,
      maxBytes: this.maxFileBytes,
      access,
    });
    const name = options.name || this.uniqueName(outcome.defaultName);
    const metadata: Record<string, unknown> = { ...(outcome.data.metadata ?? {}) };
    // What a load skipped or merged stays with the dataset, so load_dataset can report it.
    if (outcome.issues.length) metadata.load_errors = outcome.issues;
    if (outcome.deduplication.merged) metadata.deduplication = outcome.deduplication;
    const dataset = new Dataset({
      name,
      kind: outcome.kind,
      source: outcome.source,
      ...outcome.data,
      metadata,
    });
    return this.add(dataset, { activate: options.activate ?? true, replace: options.replace ?? false });
  }

  /** Add a dataset built elsewhere. */
  add(dataset: Dataset, options: { activate?: boolean; replace?: boolean } = {}): Dataset {
    this.checkName(dataset.name, { replace: options.replace });
    // A dataset loaded again under a name with recorded suppressions gets them back (state dir only).
    if (this.suppressions.apply(dataset) > 0 && dataset.version > 0) dataset.touch();
    const replacing = this.#datasets.get(dataset.name);
    if (replacing) this.#retire(replacing);
    this.#datasets.set(dataset.name, dataset);
    if (options.activate ?? true) this.#active = dataset.name;
    else if (this.#active === null) this.#active = dataset.name;
    // A shared workspace evicts where its writer holds the log's lease instead (evictExcess).
    if (!this.#evictionCounts) this.#evict(() => true);
    this.#notifyDataset(dataset.name, true);
    return dataset;
  }

  /** Add the result of a live collection as a dataset of kind `live`. */
  addInventory(
    result: Partial<InventoryResult>,
    name?: string,
    options: { activate?: boolean; replace?: boolean } = {},
  ): Dataset {
    const init: DatasetInit = {
      ...result,
      name: name || this.uniqueName('live'),
      kind: 'live',
      source: 'live',
    };
    return this.add(new Dataset(init), options);
  }

  // ---- eviction -----------------------------------------------------------------------------

  /** Set while a shared workspace decides evictions (see `delegateEviction`). */
  #evictionCounts: ((dataset: Dataset) => boolean) | undefined;

  /**
   * Retire the oldest datasets `counts` accepts, never the active one, while more than
   * `maxDatasets` of them are loaded. Returns them, oldest first.
   */
  #evict(counts: (dataset: Dataset) => boolean): Dataset[] {
    const evicted: Dataset[] = [];
    let counted = 0;
    for (const d of this.#datasets.values()) if (counts(d)) counted += 1;
    while (counted > this.maxDatasets) {
      const victim = [...this.#datasets.values()].find((d) => d.name !== this.#active && counts(d));
      if (victim === undefined) break;
      this.#retire(victim);
      evicted.push(victim);
      counted -= 1;
    }
    return evicted;
  }

  /**
   * Leave eviction beyond `maxDatasets` to a workspace shared by replicas (issue 20): `add` stops
   * evicting, and the shared workspace calls `evictExcess` where its writer holds the log's
   * lease, so an eviction is one replica's decision, recorded in the log for all of them rather
   * than each replica's own. `counts` names the datasets the limit counts and eviction may take
   * (those made through the log: a replica's own preloads are neither). Returns a function that
   * gives eviction back to `add`.
   */
  delegateEviction(counts: (dataset: Dataset) => boolean): () => void {
    this.#evictionCounts = counts;
    return () => {
      if (this.#evictionCounts === counts) this.#evictionCounts = undefined;
    };
  }

  /**
   * Evict the oldest inactive datasets beyond `maxDatasets` (those `delegateEviction` counts,
   * else all), recording each as an `unload` with reason `evicted`. Returns their names.
   */
  evictExcess(): string[] {
    const evicted = this.#evict(this.#evictionCounts ?? (() => true));
    if (evicted.length === 0) return [];
    for (const d of evicted) this.#record({ op: 'unload', name: d.name, reason: 'evicted' });
    // Gone, so their summary URIs are not announced; the list and the workspace changed.
    this.notify('resources');
    this.notify('resource', WORKSPACE_URI);
    this.notify('resource', DATASETS_URI);
    return evicted.map((d) => d.name);
  }

  /** Make a dataset the active one. */
  select(name: string): Dataset {
    const dataset = this.get(name);
    this.#active = dataset.name;
    this.#notifyDataset(dataset.name, false);
    this.#record({ op: 'use', name: dataset.name });
    return dataset;
  }

  /** Unload a dataset; when it was active, the most recently added remaining one takes over. */
  remove(name: string): Dataset {
    const dataset = this.get(name);
    this.#retire(dataset);
    if (this.#active === dataset.name) this.#active = this.names().at(-1) ?? null;
    // The dataset is gone, so its summary URI is not announced.
    this.#notifyDataset(dataset.name, true);
    this.#record({ op: 'unload', name: dataset.name });
    return dataset;
  }

  /** Deep copy a dataset under a new name (kind `snapshot`, not activated). */
  snapshot(name: string | null | undefined, newName: string, options: { replace?: boolean } = {}): Dataset {
    this.checkName(newName, options);
    const source = this.get(name);
    const copy = source.copy({ name: newName, kind: 'snapshot', source: `snapshot of ${source.name}` });
    const added = this.add(copy, { activate: false, replace: options.replace ?? false });
    this.#record({ op: 'snapshot', from: source.name, name: newName, replace: options.replace ?? false });
    return added;
  }

  /** Compare two datasets; an empty target means the active one. */
  diff(base: string, target?: string | null, limit = 50): DatasetDiff {
    return diffDatasets(this.get(base), this.get(target), limit);
  }
}
