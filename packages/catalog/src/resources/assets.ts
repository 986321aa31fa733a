import type { Registry } from '@cloudg/core';
import { completeAssetRef } from '../completions/assets.js';
import { assetBrief, edgeBrief } from '../conventions/briefs.js';
import { resolveAssetRef } from '../conventions/references.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { assetBriefWithTags, metadataKeys, openFindingBriefs } from '../tools/inventory/asset-detail.js';
import { countByEdgeType, degreeOf, directDependencies } from '../tools/inventory/relations.js';
import type { Workspace } from '../workspace/workspace.js';

/** Open findings the asset resource lists at most. */
const RESOURCE_MAX_FINDINGS = 10;
/** Edges the neighbours resource lists at most. */
const MAX_NEIGHBOR_EDGES = 500;

/** Whether a node id appears as an edge endpoint (a placeholder such as `0.0.0.0/0`). */
function isGraphNode(dataset: Dataset, id: string): boolean {
  return dataset.indexes.outgoing(id).length > 0 || dataset.indexes.incoming(id).length > 0;
}

/** An asset, or a graph placeholder node; anything else fails like an asset reference. */
function resolveNode(dataset: Dataset, ref: string): { asset: CloudAsset } | { placeholder: string } {
  const value = ref.trim();
  if (!dataset.indexes.assetById(value) && isGraphNode(dataset, value)) return { placeholder: value };
  return { asset: resolveAssetRef(dataset, ref) };
}

function assetView(dataset: Dataset, asset: CloudAsset) {
  const idx = dataset.indexes;
  return {
    ...assetBriefWithTags(dataset, asset),
    relations: {
      outgoing: countByEdgeType(idx.outgoing(asset.id)),
      incoming: countByEdgeType(idx.incoming(asset.id)),
    },
    findings: openFindingBriefs(dataset, asset, RESOURCE_MAX_FINDINGS),
    metadata_keys: metadataKeys(asset),
    dependencies: directDependencies(dataset, asset.id),
  };
}

function neighborsView(dataset: Dataset, node: string) {
  const idx = dataset.indexes;
  const edges = [...idx.outgoing(node), ...idx.incoming(node)];
  const seen = new Set<string>();
  const neighbors: Record<string, unknown>[] = [];
  for (const e of edges) {
    const other = e.source_id === node ? e.target_id : e.source_id;
    if (other === node || seen.has(other)) continue;
    seen.add(other);
    const asset = idx.assetById(other);
    neighbors.push(asset ? { ...assetBrief(dataset, asset) } : { id: other, external: true });
  }
  return {
    asset: node,
    edges: edges.slice(0, MAX_NEIGHBOR_EDGES).map((e) => edgeBrief(dataset, e)),
    neighbors,
  };
}

/** `cloudg://assets/{+ref}`, its `/neighbors` and its `/findings`, over the active dataset. */
export function registerAssetResources(registry: Registry<Workspace>): void {
  registry.resourceTemplate({
    uriTemplate: 'cloudg://assets/{+ref}',
    name: 'asset',
    title: 'Asset',
    description:
      'One asset of the active dataset: brief with tags, relation counts by edge type, up to 10 open findings, metadata keys and dependency counts. A graph placeholder (the internet, a CIDR) shows id, name and degree.',
    category: 'inventory',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    completions: { ref: completeAssetRef },
    handler: (ctx, vars) => {
      const dataset = ctx.app.get();
      const node = resolveNode(dataset, vars.ref ?? '');
      if ('asset' in node) return assetView(dataset, node.asset);
      const degree = degreeOf(dataset, node.placeholder);
      return { id: node.placeholder, external: true, name: node.placeholder, degree: degree.in + degree.out };
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://assets/{+ref}/neighbors',
    name: 'asset-neighbors',
    title: 'Asset neighbours',
    description:
      'The edges of one asset or graph node in the active dataset (up to 500 edge briefs) and the nodes at their other ends.',
    category: 'graph',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    completions: { ref: completeAssetRef },
    handler: (ctx, vars) => {
      const dataset = ctx.app.get();
      const node = resolveNode(dataset, vars.ref ?? '');
      return neighborsView(dataset, 'asset' in node ? node.asset.id : node.placeholder);
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://assets/{+ref}/findings',
    name: 'asset-findings',
    title: 'Asset findings',
    description: 'One asset of the active dataset and every open finding on it, highest risk first.',
    category: 'findings',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    completions: { ref: completeAssetRef },
    handler: (ctx, vars) => {
      const dataset = ctx.app.get();
      const asset = resolveAssetRef(dataset, vars.ref ?? '');
      return { asset: assetBrief(dataset, asset), findings: openFindingBriefs(dataset, asset) };
    },
  });
}
