import { findingUri } from '../conventions/briefs.js';
import type { Dataset } from '../dataset/dataset.js';
import type { Finding } from '../model/finding.js';
import type { Workspace } from '../workspace/workspace.js';
import { patchSuppressedFlags } from './columns.js';

/** The findings summary resource (registered in resources/findings.ts). */
export const FINDINGS_SUMMARY_URI = 'cloudg://findings/summary';

/**
 * Derived structures a suppression or a restore leaves valid: built from assets and edges only
 * (the graphs and what is computed on them), or from what never changes on a finding (its
 * resource, severity, text, risk score). Keeping them makes the triage loop (suppress, then look
 * at top_risks or the next page of findings again) cost what the changed counts cost, not a
 * rebuild of every graph. A key not listed here is dropped, so a structure added later is safe by
 * default: it is rebuilt.
 */
const KEPT = new Set([
  'indexes',
  'identifiers',
  'graph',
  'flow_graph',
  'dependency_graph',
  'dependency_graph_hierarchy',
  'identity_graph',
  'graph.compact.flow',
  'graph.compact.traffic',
  'graph.incident',
  'graph.internet_entry_points',
  'centrality',
  'inventory:search-text',
  'graph.internet_reach',
  'findings:search-text',
  'findings:controls',
  'findings:transitive-dependents',
  'findings:dependent-rows',
  'findings:facts',
  'findings:id-ranks',
  'findings:suppressed-flags',
]);
const KEPT_PREFIXES = ['findings:sorted:', 'findings:columns:', 'findings:group-keys:'];

export function keptAcrossTriage(key: string): boolean {
  return KEPT.has(key) || KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));
}

const FLAGS_KEY = 'findings:suppressed-flags';

/**
 * Record that `changed` findings of `dataset` were suppressed or restored: the version moves (so
 * cursors go stale), the structures triage cannot affect are kept, the suppression flags are
 * patched, and readers of the findings resources are told.
 */
export function findingsTriaged(workspace: Workspace, dataset: Dataset, changed: readonly Finding[]): void {
  // Recorded decisions not yet on these findings (normally none) would change flags this call does
  // not know about; then the flags are built again instead of patched.
  const reapplied = workspace.suppressions.apply(dataset);
  const keep =
    reapplied === 0 ? keptAcrossTriage : (key: string) => key !== FLAGS_KEY && keptAcrossTriage(key);
  workspace.mutated(dataset, { keep });
  patchSuppressedFlags(dataset, changed);
  // The indexes survive, but the open-finding figures they hold count suppression.
  dataset.indexes.findingsTriaged();
  // The findings resources read the active dataset.
  if (workspace.activeName === dataset.name) {
    workspace.notify('resource', FINDINGS_SUMMARY_URI);
    for (const f of changed) workspace.notify('resource', findingUri(f.id));
  }
}
