import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { RELATION_GROUPS, relationGroupOf } from '../../ontology/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { linkOntology, ontologyForCall } from './access.js';

/** `ontology_stats`: size and shape of the dataset's ontology. */
export function registerOntologyStats(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'ontology_stats',
    title: 'Ontology stats',
    description:
      "Size and shape of the dataset's RDF ontology: total_triples, classes_used, individuals, relation_type_counts (cmp: relations and data properties, most frequent first) and relation_group_counts for the seven relation groups. built_now is true when this call built the ontology (the first call on a large dataset takes a while and reports progress).",
    category: 'ontology',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: { dataset: datasetArg() },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const { ontology, builtNow } = await ontologyForCall(ctx, dataset);
      const predicates = [...ontology.counts.predicates].sort(
        (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
      );
      const groups: Record<string, number> = Object.fromEntries(RELATION_GROUPS.map((g) => [g, 0]));
      for (const [name, count] of predicates) {
        const group = relationGroupOf(name);
        if (group !== undefined) groups[group] = (groups[group] ?? 0) + count;
      }
      linkOntology(ctx);
      return {
        dataset: dataset.name,
        built_now: builtNow,
        total_triples: ontology.size,
        classes_used: ontology.counts.classesUsed,
        individuals: ontology.counts.individuals,
        relation_type_counts: Object.fromEntries(predicates),
        relation_group_counts: groups,
      };
    },
  });
}
