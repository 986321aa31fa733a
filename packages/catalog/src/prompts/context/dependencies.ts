import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import { HIERARCHY_ASSET_TYPES } from '../../model/vocabulary.js';
import { dependencyDirection } from '../../tools/meta/vocabulary/index.js';

/**
 * Dependency facts the prompts embed, read straight from the edge list with the dependency
 * direction of each edge type (forward: the source needs the target; reverse: the target needs
 * the source). Containment by an organization, OU or account says where something lives, not
 * what breaks with it, so those edges are left out.
 */

interface Link {
  dependent: string;
  dependency: string;
}

function linkOf(dataset: Dataset, source: string, target: string, type: string): Link | undefined {
  const direction = dependencyDirection(type);
  if (direction === 'none') return undefined;
  if (type === 'CONTAINS') {
    const container = dataset.indexes.assetById(source);
    if (container && HIERARCHY_ASSET_TYPES.has(container.asset_type)) return undefined;
  }
  return direction === 'forward'
    ? { dependent: source, dependency: target }
    : { dependent: target, dependency: source };
}

/** Assets the given asset depends on directly, in edge order. */
export function directDependencies(dataset: Dataset, assetId: string): CloudAsset[] {
  return neighbours(dataset, assetId, 'dependency');
}

/** Assets that depend on the given asset directly, in edge order. */
export function directDependents(dataset: Dataset, assetId: string): CloudAsset[] {
  return neighbours(dataset, assetId, 'dependent');
}

function neighbours(dataset: Dataset, assetId: string, want: keyof Link): CloudAsset[] {
  const idx = dataset.indexes;
  const self: keyof Link = want === 'dependent' ? 'dependency' : 'dependent';
  const seen = new Set<string>();
  const out: CloudAsset[] = [];
  const edges = [...idx.outgoing(assetId), ...idx.incoming(assetId)];
  for (const e of edges) {
    const link = linkOf(dataset, e.source_id, e.target_id, e.edge_type);
    if (!link || link[self] !== assetId) continue;
    const other = link[want];
    const asset = idx.assetById(other);
    if (other === assetId || !asset || seen.has(other)) continue;
    seen.add(other);
    out.push(asset);
  }
  return out;
}

/** Every asset that depends on the given one, directly or through others, up to `maxDepth` hops. */
export function transitiveDependents(dataset: Dataset, assetId: string, maxDepth: number): CloudAsset[] {
  const found = new Map<string, CloudAsset>();
  let frontier = [assetId];
  for (let depth = 0; depth < maxDepth && frontier.length > 0; depth += 1) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const asset of directDependents(dataset, id)) {
        if (asset.id === assetId || found.has(asset.id)) continue;
        found.set(asset.id, asset);
        next.push(asset.id);
      }
    }
    frontier = next;
  }
  return [...found.values()];
}
