import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import { compactIri } from '../../ontology/iri.js';
import { RELATION_GROUPS, RELATION_TYPES_BY_GROUP } from '../../ontology/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { parseVocabulary } from '../meta/parse-vocabulary.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { ontologyForCall } from './access.js';
import { displayName } from './display.js';

/** `relation_groups`: the relation groups with their totals, or one group's triples, a page at a time. */
export function registerRelationGroups(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'relation_groups',
    title: 'Relation groups',
    description:
      'Without group: every relation group (NETWORK, CONTAINMENT, IAM, DATA_FLOW, SECURITY, COMPUTE, GOVERNANCE) with its total and the relation types present. With group (any case): relation_types (every type of the group, present or not) and a page of its triples, each with relation, src and tgt (compact URIs) and srcName / tgtName.',
    category: 'ontology',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      group: z
        .string()
        .default('')
        .describe('NETWORK, CONTAINMENT, IAM, DATA_FLOW, SECURITY, COMPUTE or GOVERNANCE; empty = overview.'),
      limit: limitArg(100, 500, 'Page size when group is set.'),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      // Check the group before building anything, so a bad value fails fast.
      const group = args.group.trim() ? parseVocabulary('relation group', args.group, RELATION_GROUPS) : null;
      const { ontology } = await ontologyForCall(ctx, dataset);
      if (group === null) {
        const groups: Record<string, { total: number; types: Record<string, number> }> = {};
        for (const g of RELATION_GROUPS) {
          const types: Record<string, number> = {};
          let total = 0;
          for (const rel of RELATION_TYPES_BY_GROUP[g]) {
            const count = ontology.counts.predicates.get(rel) ?? 0;
            if (count > 0) types[rel] = count;
            total += count;
          }
          groups[g] = { total, types };
        }
        return { dataset: dataset.name, groups };
      }
      const order = RELATION_TYPES_BY_GROUP[group];
      const triples = ontology.inGroup(group, order);
      const page = paginate(triples, {
        dataset,
        query: { group },
        limit: args.limit,
        cursor: args.cursor,
      });
      return {
        dataset: dataset.name,
        group,
        relation_types: [...order],
        ...page,
        // `relation` is not in the reference's items, which leaves a page of mixed relation types
        // unreadable; it is added here.
        items: page.items.map((t) => ({
          relation: t.relation,
          src: compactIri(t.subject),
          tgt: compactIri(t.object),
          srcName: displayName(ontology, t.subject),
          tgtName: displayName(ontology, t.object),
        })),
      };
    },
  });
}
