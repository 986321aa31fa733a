import type { JsonObject, Registry, ToolSpec } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';

/** Longest summary `list_capabilities` shows for one tool. */
const SUMMARY_CHARS = 160;

/** Suggested tool sequences; a step of the form `a / b` offers a choice. */
const WORKFLOWS: Readonly<Record<string, readonly string[]>> = {
  orient: ['workspace_status', 'dataset_summary', 'count_assets', 'findings_summary'],
  'triage risk': ['top_risks', 'get_asset', 'findings_for_asset', 'blast_radius'],
  'attack surface': ['internet_exposure', 'attack_paths', 'find_paths', 'lateral_movement_paths'],
  'change impact': ['dependents', 'dependency_tree', 'blast_radius', 'shared_dependencies'],
  compliance: ['compliance_summary', 'list_controls', 'control_status', 'compliance_gaps'],
  drift: ['snapshot_dataset', 'map_inventory / load_dataset', 'diff_datasets'],
  semantic: ['ontology_stats', 'relation_groups', 'ontology_neighbourhood', 'sparql_query'],
};

const CONVENTIONS = {
  dataset: 'empty = active dataset',
  ref: 'asset id, ARN, unique name or unique ARN tail',
  pagination: 'pass next_cursor back as cursor; cursors expire when the dataset changes',
} as const;

/** The first sentence of a description, at most 160 characters. */
export function summarise(description: string): string {
  const text = description.trim();
  // A full stop ends the sentence, except the ones inside "e.g." and "i.e.".
  const end = text.search(/(?<!\b(?:e\.g|i\.e))\.(\s|$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  return sentence.length > SUMMARY_CHARS ? `${sentence.slice(0, SUMMARY_CHARS - 3)}...` : sentence;
}

function toolEntry(spec: ToolSpec<Workspace>, exposed: string): JsonObject {
  return {
    name: exposed,
    title: spec.title ?? null,
    read_only: spec.annotations.readOnlyHint === true,
    open_world: spec.annotations.openWorldHint === true,
    sensitivity: spec.sensitivity,
    capabilities: [...spec.capabilities].sort(),
    summary: summarise(spec.description),
  };
}

export function registerListCapabilities(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_capabilities',
    title: 'List capabilities',
    description:
      'What this caller may use: the visible tools grouped by category (name, title, read-only and ' +
      'open-world flags, sensitivity, capabilities and a one-sentence summary), how many resources and ' +
      'resource templates there are, the prompt names, recommended workflows and the shared conventions. ' +
      'Filtered through the policy for the calling principal. Start here to plan a session.',
    category: 'meta',
    sensitivity: 'public',
    capabilities: [],
    tags: ['start-here'],
    handler: (ctx) => {
      const { layer, principal } = ctx;
      const tools = layer.listTools(principal);
      const visible = new Set(tools.map((t) => t.name));
      const categories: Record<string, JsonObject[]> = {};
      for (const spec of [...tools].sort((a, b) => a.name.localeCompare(b.name))) {
        const list = categories[spec.category] ?? [];
        list.push(toolEntry(spec, layer.exposedName(spec.name)));
        categories[spec.category] = list;
      }
      const sortedCategories: Record<string, JsonObject[]> = {};
      for (const key of Object.keys(categories).sort()) sortedCategories[key] = categories[key] ?? [];
      // Workflows only name tools this caller can call, under their exposed names.
      const workflows: Record<string, string[]> = {};
      for (const [name, steps] of Object.entries(WORKFLOWS)) {
        const kept = steps
          .map((step) =>
            step
              .split(' / ')
              .filter((tool) => visible.has(tool))
              .map((tool) => layer.exposedName(tool))
              .join(' / '),
          )
          .filter((step) => step.length > 0);
        if (kept.length > 0) workflows[name] = kept;
      }
      return {
        server: layer.identity.name,
        version: layer.identity.version,
        categories: sortedCategories,
        tool_count: tools.length,
        resources: layer.listResources(principal).length,
        resource_templates: layer.listResourceTemplates(principal).length,
        prompts: layer.listPrompts(principal).map((p) => layer.exposedName(p.name)),
        workflows,
        conventions: { ...CONVENTIONS },
      };
    },
  });
}
