import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import type { Workspace } from '../../workspace/workspace.js';
import { ontologyRelationsOf } from './edge-relations.js';
import { parseVocabulary } from './parse-vocabulary.js';
import { EDGE_TYPE_ORDER, edgeTypeInfo } from './vocabulary/index.js';

export function registerExplainEdgeType(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'explain_edge_type',
    title: 'Explain edge type',
    description:
      'How to read one edge type: "source verb target", typical endpoints, a note, the dependency ' +
      'direction (forward, reverse or none) and the ontology relations it becomes. A relationship declared ' +
      'on an edge replaces those relations on CONTAINS, ATTACHED_TO, REFERENCES and the typed inventory edges, and ' +
      'comes before them on the network and IAM edges.',
    category: 'meta',
    sensitivity: 'public',
    capabilities: [],
    input: {
      edge_type: z.string().min(1).describe('An EdgeType value, e.g. ASSUMES_ROLE.'),
    },
    handler: (_ctx, args) => {
      const type = parseVocabulary('edge type', args.edge_type, EDGE_TYPE_ORDER);
      return { ...edgeTypeInfo(type), ontology_relations: ontologyRelationsOf(type) };
    },
  });
}
