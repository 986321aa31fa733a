/**
 * The operations of a shared workspace's log still in effect (issue 20: the log is compacted so
 * it stays bounded). Every dataset name goes through generations: a load, live collection,
 * snapshot or new-dataset ingest starts one (ending the previous one of that name: a replace);
 * `unload` ends one. The operations of a generation that has ended are dropped with it (its
 * triage decisions, ingests, normalisation, its `unload`), unless a `snapshot` copied it while
 * it lived: the copy depends on its state then, so it is kept whole. Everything else is kept in
 * log order, but for `use`: a selection only decides the active dataset, so every one is dropped
 * and the active dataset the operations leave is pinned by one final `use` (dropping an unloaded
 * dataset also drops the fallback its unload made). Keeping them would let the snapshot grow
 * with every compaction, by the selections made since the one before (second review, Q2).
 *
 * Within a generation, a `findings` operation (the dataset's findings and compliance as a scan
 * left them, stored whole) replaces what the operations before it did to the findings alone
 * (earlier scans, ingests into it, normalisation, reachability findings), so those go too,
 * except ones before a `snapshot` of it: the copy took their effect. Triage decisions stay: they
 * are recorded apart from the findings and applied to the stored ones again.
 *
 * Evictions at `max_datasets` are in the log as `unload`s with reason `evicted` (the writer's
 * decision; replicas never evict what they apply), so they end generations like any unload: an
 * evicted dataset goes with its operations, and a replica rebuilt from the snapshot never loads
 * it again.
 *
 * An operation on a name no generation holds acted on replicas' own preloads (`--dataset`) of
 * that name: each replica that applied it did it to its own. Such a name is a generation too
 * (begun by the first of them), with the same rules, so a replica started later or rebuilt does
 * to its preload what the others did; except that the `unload` ending it stays, since it
 * unloaded every replica's preload of that name.
 *
 * A scan of a replica's own dataset (`findings` with `own`) acted on each replica's preload of
 * that name, never on the log's dataset of it, so it stays out of the generations: per name, a
 * later such scan replaces the earlier ones (each stores the findings whole), except one a
 * `snapshot` copied from meanwhile, and the `unload` of the preloads ends them. Kept in a
 * generation, they were never replaced (the log grew by one scan, and its file, per scan) and
 * went with a log dataset of the name they did not touch (final review).
 *
 * Triage decisions outlive their generation on a replica with a state directory: it records
 * them by dataset name and gives them back to a later dataset of that name (see
 * `SuppressionStore`). So the decisions of generations that ended are not dropped but folded,
 * per name, into one `triage` operation (the latest decision per finding) where the last of
 * them was; applied where no dataset of that name is loaded, it only records them.
 *
 * Applied to a workspace holding only a replica's preloads, the result gives the datasets,
 * findings, decisions and active dataset the whole log gives there. (A log an earlier version
 * wrote has no evictions: its replicas evicted on their own. Its excess goes at the first change
 * made after the upgrade.)
 */
import type { SuppressionDecision } from '../findings/suppression-store.js';
import type { WorkspaceOperation } from './operations.js';

interface Generation {
  ops: number[];
  ended: boolean;
  /** A snapshot copied it while it lived. */
  read: boolean;
  /** Operations since its last copy that changed only its findings (see `findingsOnly`). */
  findingsSinceRead: number[];
  /** Operations a later `findings` operation replaced. */
  superseded: Set<number>;
  /** Begun by an operation on replicas' preloads of the name, not by one that created it. */
  preload?: boolean;
}

function newGeneration(first: number): Generation {
  return { ops: [first], ended: false, read: false, findingsSinceRead: [], superseded: new Set() };
}

/**
 * Operations that change only the findings and compliance of the dataset they act on. (Scans of a
 * replica's own dataset never reach a generation: see `compactOperations`.)
 */
function findingsOnly(op: WorkspaceOperation): boolean {
  if (op.op === 'findings') return true;
  return op.op === 'normalise' || op.op === 'reachability' || op.op === 'ingest';
}

/** The dataset an operation creates (a new generation of that name), if any. */
export function createdDataset(op: WorkspaceOperation): string | undefined {
  switch (op.op) {
    case 'load':
    case 'live':
    case 'snapshot':
      return op.name;
    case 'ingest':
      return op.request.new_dataset ? op.request.dataset : undefined;
    default:
      return undefined;
  }
}

/** The dataset an operation acts on without creating it, if any. */
function touched(op: WorkspaceOperation): string | undefined {
  switch (op.op) {
    case 'use':
    case 'unload':
      return op.name;
    case 'triage':
    case 'normalise':
    case 'reachability':
    case 'findings':
      return op.dataset;
    case 'ingest':
      return op.request.new_dataset ? undefined : op.request.dataset;
    default:
      return undefined;
  }
}

/**
 * The triage decisions of operations not `kept` (generations that ended), one `triage` operation
 * per dataset name at the index of the last of them, each finding's latest decision.
 */
function foldEndedTriage(
  operations: readonly WorkspaceOperation[],
  kept: ReadonlySet<number>,
): Map<number, WorkspaceOperation> {
  const byName = new Map<string, { at: number; decisions: Map<string, SuppressionDecision> }>();
  operations.forEach((op, i) => {
    if (op.op !== 'triage' || kept.has(i)) return;
    const entry = byName.get(op.dataset) ?? { at: i, decisions: new Map() };
    entry.at = i;
    for (const [id, decision] of op.decisions) {
      // Latest last: a decision made again moves to the end, as the store keeps it.
      entry.decisions.delete(id);
      entry.decisions.set(id, decision);
    }
    byName.set(op.dataset, entry);
  });
  const out = new Map<number, WorkspaceOperation>();
  for (const [dataset, { at, decisions }] of byName)
    if (decisions.size > 0) out.set(at, { op: 'triage', dataset, decisions: [...decisions] });
  return out;
}

/**
 * `operations` (a log's, in order) reduced to those still in effect, the active dataset they
 * leave pinned at the end. That dataset is worked out from the operations (`activeAfter`), not
 * taken from the compacting replica: a replica that diverged (it skipped an operation it could
 * not apply) must not impose its own active dataset on every replica that rebuilds.
 */
export function compactOperations(operations: readonly WorkspaceOperation[]): WorkspaceOperation[] {
  const active = activeAfter(operations);
  const current = new Map<string, Generation>();
  const all: Generation[] = [];
  const preloadUnloads = new Set<number>();
  // Scans of replicas' own datasets: the latest per name, and those replaced or ended.
  const ownLatest = new Map<string, number>();
  const ownDropped = new Set<number>();
  operations.forEach((op, i) => {
    if (op.op === 'snapshot') {
      const source = current.get(op.from);
      if (source) {
        source.read = true;
        source.findingsSinceRead = [];
      }
      // The copy took the scan's effect: a later scan of the source no longer replaces it.
      ownLatest.delete(op.from);
    }
    if (op.op === 'findings' && op.own === true) {
      const previous = ownLatest.get(op.dataset);
      if (previous !== undefined) ownDropped.add(previous);
      ownLatest.set(op.dataset, i);
      return;
    }
    const name = createdDataset(op);
    if (name !== undefined) {
      const previous = current.get(name);
      if (previous) previous.ended = true;
      const generation = newGeneration(i);
      current.set(name, generation);
      all.push(generation);
      return;
    }
    const target = touched(op);
    let generation = target === undefined ? undefined : current.get(target);
    if (!generation) {
      if (target === undefined) return;
      // An eviction only ever takes a dataset the log made: nothing of a preload's.
      if (op.op === 'unload' && op.reason === 'evicted') return;
      generation = { ...newGeneration(i), preload: true };
      current.set(target, generation);
      all.push(generation);
    } else {
      generation.ops.push(i);
    }
    // An ingest that made a new dataset started a generation above: this one is into a dataset.
    if (findingsOnly(op)) {
      if (op.op === 'findings') {
        for (const j of generation.findingsSinceRead) generation.superseded.add(j);
        generation.findingsSinceRead = [];
      }
      generation.findingsSinceRead.push(i);
    }
    if (op.op === 'unload') {
      if (generation.preload) {
        preloadUnloads.add(i);
        // The preloads are gone from every replica that applied it, and their scans with them.
        const scan = ownLatest.get(op.name);
        if (scan !== undefined) ownDropped.add(scan);
        ownLatest.delete(op.name);
      }
      generation.ended = true;
      current.delete(op.name);
    }
  });
  const kept = new Set<number>(preloadUnloads);
  operations.forEach((op, i) => {
    if (op.op === 'findings' && op.own === true && !ownDropped.has(i)) kept.add(i);
  });
  for (const generation of all)
    if (!generation.ended || generation.read)
      for (const i of generation.ops)
        if (!generation.superseded.has(i) && operations[i]?.op !== 'use') kept.add(i);
  const folded = foldEndedTriage(operations, kept);
  const out = operations.flatMap((op, i) => (kept.has(i) ? [op] : (folded.get(i) ?? [])));
  if (active !== null && current.has(active)) out.push({ op: 'use', name: active });
  return out;
}

/**
 * The active dataset after `operations`, as a workspace holding only what they made ends with it
 * (see `Workspace.add`, `select`, `remove`): a dataset added with `activate` becomes active, and so
 * does one added to a workspace with none; `use` selects; unloading the active one hands over to
 * the most recently added that remains. Datasets the operations did not make (a replica's own
 * preloads) are only known by name once an operation touched them; where preloads decide the
 * fallback, replicas with different preloads differ there anyway.
 */
export function activeAfter(operations: readonly WorkspaceOperation[]): string | null {
  // Insertion order, as the workspace's map: a dataset added again (replaced) moves to the end.
  const names = new Set<string>();
  let active: string | null = null;
  const added = (name: string, activate: boolean) => {
    names.delete(name);
    names.add(name);
    if (activate || active === null) active = name;
  };
  for (const op of operations) {
    switch (op.op) {
      case 'load':
      case 'live':
        added(op.name, op.activate);
        break;
      case 'snapshot':
        added(op.name, false);
        break;
      case 'ingest':
        if (op.request.new_dataset) added(op.request.dataset, op.request.activate);
        break;
      case 'use':
        names.add(op.name);
        active = op.name;
        break;
      case 'unload':
        names.delete(op.name);
        if (active === op.name) active = [...names].at(-1) ?? null;
        break;
      default:
        break;
    }
  }
  return active;
}
