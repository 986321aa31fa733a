import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import type { NetworkEdge } from '../../model/edge.js';
import { assetRelations, KeyIndex } from '../asset-relations.js';
import { inferRelations } from '../infer.js';
import { append } from '../multimap.js';

/**
 * The relations the RAG chunks are cut from, built from the same rules as the ontology: each raw
 * edge's inferred relations (so two rules on one pair are listed twice, as collected), then the
 * asset-level relations from tags and metadata. Tags themselves (`TAGGED_WITH`) and findings are
 * not relations here; findings are attached to entity and community chunks directly.
 */
export interface RagRelation {
  source: string;
  relation: string;
  target: string;
  /** Port, protocol and CIDR of the edge, as `port 443/TCP from 0.0.0.0/0`; empty when none. */
  evidence: string;
  /** From an edge (entity chunks list only these) or from the asset's own metadata. */
  fromEdge: boolean;
}

function evidenceOf(edge: NetworkEdge): string {
  const port = edge.port_range ?? (edge.ports.length ? edge.ports.join(',') : null);
  const parts: string[] = [];
  if (port) parts.push(`port ${port}${edge.protocol ? `/${edge.protocol}` : ''}`);
  else if (edge.protocol) parts.push(edge.protocol);
  if (edge.cidr) parts.push(`from ${edge.cidr}`);
  return parts.join(' ');
}

export function ragRelations(dataset: Dataset, signal?: AbortSignal): RagRelation[] {
  return dataset.derived('rag.relations', (ds) => {
    const byId = ds.indexes.byId;
    const out: RagRelation[] = [];
    let n = 0;
    for (const edge of ds.edges) {
      if (++n % 4096 === 0) signal?.throwIfAborted();
      const source = byId.get(edge.source_id) ?? null;
      const target = byId.get(edge.target_id) ?? null;
      const evidence = evidenceOf(edge);
      for (const relation of inferRelations(edge, source, target))
        out.push({ source: edge.source_id, relation, target: edge.target_id, evidence, fromEdge: true });
    }
    const keys = new KeyIndex(ds.assets);
    const vpcMembers = new Map<string, CloudAsset[]>();
    for (const a of ds.assets) {
      const vpc = typeof a.metadata.vpc_id === 'string' ? a.metadata.vpc_id : null;
      if (!vpc) continue;
      append(vpcMembers, vpc, a);
    }
    for (const asset of ds.assets) {
      for (const r of assetRelations(asset, keys, ds.indexes.matcher, vpcMembers)) {
        const target = 'asset' in r.object ? r.object.asset : r.object.local;
        out.push({ source: r.subject, relation: r.relation, target, evidence: '', fromEdge: false });
      }
    }
    return out;
  });
}

/** A node's display name: the asset's name, else the raw id (a CIDR, a tag node). */
export function nodeName(dataset: Dataset, id: string): string {
  return dataset.indexes.byId.get(id)?.name ?? id;
}
