import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetUri } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { AbortCheck } from '../../graph/index.js';
import { assetIdOfIndividual, compactIri, resourceIri } from '../../ontology/iri.js';
import type { Ontology, RelationTriple } from '../../ontology/ontology.js';
import type { Workspace } from '../../workspace/workspace.js';
import { assetRefArg, datasetArg } from '../workspace/args.js';
import { ontologyForCall } from './access.js';
import { displayName } from './display.js';

interface NeighbourTriple {
  subject: string;
  predicate: string;
  object: string;
  depth: number;
  subject_id: string;
  object_id: string;
}

/**
 * Breadth-first over the relation triples, both directions, from one node: at each depth the
 * frontier's outgoing relations, then its incoming ones, in the order they were written. A
 * triple is listed once; the walk stops at `limit` triples (`truncated` when more were left).
 */
export function walkNeighbourhood(
  ontology: Ontology,
  start: string,
  hops: number,
  limit: number,
  signal?: AbortSignal,
): { triples: NeighbourTriple[]; truncated: boolean } {
  const abort = new AbortCheck(signal);
  const seenNodes = new Set([start]);
  const listed = new Set<RelationTriple>();
  const triples: NeighbourTriple[] = [];
  let frontier = [start];
  for (let depth = 1; depth <= hops && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const [list, far] of [
        [ontology.outgoing(node), 'object'],
        [ontology.incoming(node), 'subject'],
      ] as const) {
        for (const t of list) {
          abort.tick();
          if (listed.has(t)) continue;
          if (triples.length >= limit) return { triples, truncated: true };
          listed.add(t);
          triples.push({
            subject: displayName(ontology, t.subject),
            predicate: t.relation,
            object: displayName(ontology, t.object),
            depth,
            subject_id: compactIri(t.subject),
            object_id: compactIri(t.object),
          });
          const other = t[far];
          if (!seenNodes.has(other)) {
            seenNodes.add(other);
            next.push(other);
          }
        }
      }
    }
    frontier = next;
  }
  return { triples, truncated: false };
}

/** `ontology_neighbourhood`: the semantic relations around one asset. */
export function registerOntologyNeighbourhood(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'ontology_neighbourhood',
    title: 'Ontology neighbourhood',
    description:
      "The semantic relations around one asset, walked breadth-first in both directions over the ontology's cmp: relations (data properties skipped) up to hops. Each triple has subject and object (the hasName value, else the compact URI), predicate, depth, subject_id and object_id; predicates counts the predicates returned. Stops at limit triples (truncated).",
    category: 'ontology',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      ref: assetRefArg().describe(
        "Asset reference: internal id, ARN / cloud resource id, unique name, unique ARN tail (e.g. 'function:api' or 'i-0abc'), or the asset's individual (cmr:<asset id>).",
      ),
      hops: z.number().int().min(1).max(3).default(1).describe('How far to walk from the asset.'),
      limit: z.number().int().min(1).max(500).default(100).describe('Triple cap.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const asset = resolveAssetRef(dataset, assetIdOfIndividual(args.ref));
      const { ontology } = await ontologyForCall(ctx, dataset);
      const walk = walkNeighbourhood(ontology, resourceIri(asset.id), args.hops, args.limit, ctx.signal);
      const predicates: Record<string, number> = {};
      for (const t of walk.triples) predicates[t.predicate] = (predicates[t.predicate] ?? 0) + 1;
      ctx.link(assetUri(asset.id), asset.name, { mimeType: 'application/json' });
      return {
        dataset: dataset.name,
        asset: { id: asset.id, name: asset.name, type: asset.asset_type },
        predicates,
        triples: walk.triples,
        returned: walk.triples.length,
        truncated: walk.truncated,
      };
    },
  });
}
