import type { Dataset } from '../../dataset/dataset.js';
import { append } from '../multimap.js';
import { relationGroupOf } from '../vocabulary.js';
import { OUT, type RagChunk } from './chunk.js';
import { nodeName, type RagRelation, ragRelations } from './relations.js';

/** Triples one relation-group chunk lists. */
const MAX_TRIPLES = 50;

/**
 * Relation-group chunks, `relation_group::<GROUP>`, one per group present, in the order the
 * groups first appear among the relations: the distribution of relation types (most frequent
 * first) and the first 50 triples.
 */
export function relationGroupChunks(dataset: Dataset, signal?: AbortSignal): readonly RagChunk[] {
  return dataset.derived('rag_relation_group', (ds) => {
    const byGroup = new Map<string, RagRelation[]>();
    for (const r of ragRelations(ds, signal)) {
      const group = relationGroupOf(r.relation);
      if (group === undefined) continue;
      append(byGroup, group, r);
    }
    return [...byGroup].map(([group, relations]) => {
      const counts: Record<string, number> = {};
      for (const r of relations) counts[r.relation] = (counts[r.relation] ?? 0) + 1;
      // Stable: ties keep first-seen order.
      const distribution = Object.entries(counts).sort((a, b) => b[1] - a[1]);
      const lines = [
        `Relation Group: ${group}`,
        `Total relations: ${relations.length}`,
        '',
        'Relation type distribution:',
        ...distribution.map(([rel, n]) => `  ${rel}: ${n}`),
        '',
        'Triples:',
        ...relations
          .slice(0, MAX_TRIPLES)
          .map((r) => `  ${nodeName(ds, r.source)} ${OUT} ${r.relation} ${OUT} ${nodeName(ds, r.target)}`),
      ];
      return {
        chunk_id: `relation_group::${group}`,
        chunk_type: 'relation_group' as const,
        content: lines.join('\n'),
        metadata: {
          relation_group: group,
          total_relations: relations.length,
          relation_type_counts: counts,
          unique_subjects: new Set(relations.map((r) => r.source)).size,
          unique_objects: new Set(relations.map((r) => r.target)).size,
        },
      };
    });
  });
}
