/**
 * Prompt tasks name the tools to call in numbered steps. A tool of the catalog reference may not
 * be registered in this build (or may be hidden from the caller), and a prompt must not send a
 * model to it: a step whose every named tool is unavailable is left out and the steps are
 * numbered again. A step is a line starting with `N. ` plus the indented lines after it.
 */

/** Every tool the catalog reference defines, so a backticked word can be told from an argument. */
const CATALOG_TOOLS: ReadonlySet<string> = new Set([
  'workspace_status',
  'list_datasets',
  'load_dataset',
  'select_dataset',
  'unload_dataset',
  'snapshot_dataset',
  'diff_datasets',
  'dataset_summary',
  'find_assets',
  'get_asset',
  'get_asset_metadata',
  'count_assets',
  'list_asset_types',
  'list_accounts',
  'list_regions',
  'list_tags',
  'coverage_report',
  'unresolved_references',
  'organization_topology',
  'neighbors',
  'get_edges',
  'find_paths',
  'attack_paths',
  'lateral_movement_paths',
  'internet_exposure',
  'blast_radius',
  'depends_on',
  'dependents',
  'dependency_tree',
  'shared_dependencies',
  'largest_blast_radius',
  'cross_account_edges',
  'centrality_top',
  'subgraph_export',
  'security_coverage',
  'graph_stats',
  'list_findings',
  'get_finding',
  'findings_summary',
  'findings_for_asset',
  'top_risks',
  'suppress_findings',
  'unsuppress_findings',
  'ingest_reports',
  'normalise_findings',
  'reachability_findings',
  'list_frameworks',
  'compliance_summary',
  'list_controls',
  'control_status',
  'compliance_gaps',
  'ontology_stats',
  'sparql_query',
  'ontology_neighbourhood',
  'relation_groups',
  'rag_chunks',
  'export_ontology',
  'terraform_preview',
  'export_terraform',
  'export_report',
  'map_inventory',
  'collect_assets',
  'run_scanners',
  'run_pipeline',
  'rate_limit_status',
  'list_capabilities',
  'describe_schema',
  'explain_asset_type',
  'explain_edge_type',
  'privacy_status',
  'preview_transform',
  'list_detectors',
  'privacy_audit_log',
  'reveal_token',
]);

const STEP = /^(\d+)\. /;
const MENTION = /`([a-z_]+)[(`]/g;

/** Catalog tools a piece of text names in backticks (`tool(...)` or `tool`). */
export function toolsNamed(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) if (m[1] && CATALOG_TOOLS.has(m[1])) out.push(m[1]);
  return out;
}

/** The task with steps that name only unavailable tools removed, the rest renumbered. */
export function availableSteps(task: string, available: (tool: string) => boolean): string {
  const lines = task.split('\n');
  const out: string[] = [];
  let number = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const step = STEP.exec(line);
    if (!step) {
      // A line outside the steps ends a numbered list.
      if (!/^\s/.test(line)) number = 0;
      out.push(line);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && /^\s+\S/.test(lines[end] as string)) end++;
    const block = lines.slice(i, end);
    const named = toolsNamed(block.join('\n'));
    i = end - 1;
    if (named.length > 0 && !named.some(available)) continue;
    number += 1;
    out.push(line.replace(STEP, `${number}. `), ...block.slice(1));
  }
  return out.join('\n');
}
