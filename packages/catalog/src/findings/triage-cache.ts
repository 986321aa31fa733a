import type { Dataset } from '../dataset/dataset.js';
import type { Workspace } from '../workspace/workspace.js';

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
  'findings:internet_reach',
  'findings:search-text',
  'findings:controls',
  'findings:transitive-dependents',
  'findings:ranks',
  'findings:risk',
  'prompts.internet_reachable',
]);
const KEPT_PREFIXES = ['findings:sorted:', 'findings:columns:', 'findings:group-keys:'];

export function keptAcrossTriage(key: string): boolean {
  return KEPT.has(key) || KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Record that findings of `dataset` were suppressed or restored. */
export function findingsTriaged(workspace: Workspace, dataset: Dataset): void {
  workspace.mutated(dataset, { keep: keptAcrossTriage });
  // The indexes survive, but the open-finding figures they hold count suppression.
  dataset.indexes.findingsTriaged();
}
