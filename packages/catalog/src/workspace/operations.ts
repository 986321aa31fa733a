/**
 * The workspace's changes as data: what one replica did to its workspace, in a form another
 * replica can do again to its own (issue 20). A load names the resolved path, never the asset
 * data: every replica reads the same file itself, so the path must be reachable from all of
 * them (a shared volume, the same image). Suppressions carry the decisions themselves (who,
 * when, why), so every replica records the same ones rather than stamping its own time.
 */

import { addReachabilityFindings } from '../findings/add-reachability.js';
import { type IngestRequest, ingestReports } from '../findings/ingest.js';
import { normaliseDataset } from '../findings/normalise-dataset.js';
import { applyDecision, type SuppressionDecision } from '../findings/suppression-store.js';
import { findingsTriaged } from '../findings/triage-cache.js';
import { applyStoredFindings } from '../live/scan-store.js';
import { addStoredLiveDataset } from '../live/store.js';
import type { LoadKind } from '../loaders/load.js';
import type { Finding } from '../model/finding.js';
import type { Workspace } from './workspace.js';

/**
 * On an operation that creates a dataset: a random id the shared workspace gives it when it
 * appends it, naming that dataset (that generation of the name) on every replica. A replica that
 * rebuilds from a snapshot reloads the dataset as a new object; the id tells it the dataset is
 * still the same one (a scan of it that was running goes on to it). Absent from entries of
 * earlier versions.
 */
interface Generation {
  gen?: string;
}

export type WorkspaceOperation =
  | ({
      op: 'load';
      /** The real path the first replica resolved. */
      path: string;
      /** The name the dataset got (derived names are settled before they are shared). */
      name: string;
      kind: LoadKind;
      normalise: boolean;
      activate: boolean;
      replace: boolean;
    } & Generation)
  | { op: 'use'; name: string }
  /**
   * `reason: 'evicted'`: the writer evicted it beyond `max_datasets` (see
   * `Workspace.evictExcess`); a replica where that name is not a dataset made through the log
   * (its own preload) leaves it. Entries of earlier versions have no reason, and no evictions.
   */
  | { op: 'unload'; name: string; reason?: 'evicted' }
  | ({ op: 'snapshot'; from: string; name: string; replace: boolean } & Generation)
  | { op: 'triage'; dataset: string; decisions: [findingId: string, decision: SuppressionDecision][] }
  /** `ingest_reports` with its paths resolved and its dataset named: each replica reads the reports. */
  | ({ op: 'ingest'; request: IngestRequest } & Generation)
  | { op: 'normalise'; dataset: string }
  /**
   * A live collection, stored by the replica that ran it under the output directory (which every
   * replica must share, as dataset paths): each replica reads the stored collection. The cloud
   * is asked once, and the result is the same dataset everywhere.
   */
  | ({ op: 'live'; path: string; name: string; activate: boolean; replace: boolean } & Generation)
  /** `reachability_findings(add_to_dataset)`: the analysis is repeated, and adds the same findings. */
  | { op: 'reachability'; dataset: string }
  /**
   * `run_scanners`: the scanning replica stored the dataset's findings after the scan under the
   * shared output directory; the others take them as they are (the scan is not repeated).
   * `own`: whether the scanned dataset was the replica's own (a preload) rather than one the log
   * made, stamped by the shared workspace; a replica applies it only to a dataset of the same
   * kind under that name (absent in entries of earlier versions: applied to either).
   */
  | { op: 'findings'; dataset: string; path: string; own?: boolean };

/**
 * Do an operation another replica did. Throws what the workspace throws (a name taken by a
 * dataset only this replica has, a file this replica cannot read): the caller skips it, since
 * the other replicas went on without it too.
 */
export async function applyOperation(workspace: Workspace, operation: WorkspaceOperation): Promise<void> {
  switch (operation.op) {
    case 'load':
      await workspace.preload(operation.path, {
        name: operation.name,
        kind: operation.kind,
        normalise: operation.normalise,
        activate: operation.activate,
        replace: operation.replace,
      });
      return;
    case 'use':
      workspace.select(operation.name);
      return;
    case 'unload':
      workspace.remove(operation.name);
      return;
    case 'snapshot':
      workspace.snapshot(operation.from, operation.name, { replace: operation.replace });
      return;
    case 'ingest':
      await ingestReports(workspace, operation.request, new AbortController().signal);
      return;
    case 'normalise':
      await normaliseDataset(workspace, workspace.get(operation.dataset), new AbortController().signal);
      return;
    case 'live':
      await addStoredLiveDataset(workspace, operation.path, operation);
      return;
    case 'findings':
      await applyStoredFindings(workspace, operation.dataset, operation.path);
      return;
    case 'reachability':
      await addReachabilityFindings(
        workspace,
        workspace.get(operation.dataset),
        new AbortController().signal,
      );
      return;
    case 'triage': {
      const decisions = new Map(operation.decisions);
      workspace.suppressions.record(operation.dataset, decisions);
      // Decisions a compaction kept after their dataset ended (see compactOperations) are only
      // recorded, for a later dataset of that name, where a state directory keeps them.
      if (!workspace.has(operation.dataset)) return;
      const dataset = workspace.get(operation.dataset);
      const changed: Finding[] = [];
      for (const [id, decision] of decisions) {
        const finding = dataset.indexes.findingById(id);
        if (!finding) continue;
        applyDecision(finding, decision);
        changed.push(finding);
      }
      if (changed.length > 0) findingsTriaged(workspace, dataset, changed);
      return;
    }
  }
}
