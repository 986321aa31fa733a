import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { edgeKey, makeEdge } from './relationship-linker.js';

const HIERARCHY_TYPES: ReadonlySet<string> = new Set(['ORGANIZATION', 'ORG_UNIT', 'CLOUD_ACCOUNT']);

/**
 * Account -> top-level resource `CONTAINS` edges marked `properties.hierarchy: true`
 * (INVENTORY_REFERENCE.md 5.2): every asset of an account that nothing else contains hangs
 * under its account node, so no collected asset floats free of where it lives. External
 * placeholders are accounts themselves and get no children.
 */
export function accountHierarchyEdges(
  assets: readonly CloudAsset[],
  edges: readonly NetworkEdge[],
): NetworkEdge[] {
  const accountNode = new Map<string, CloudAsset>();
  for (const a of assets) {
    if (a.asset_type === 'CLOUD_ACCOUNT' && a.account_id && a.metadata.external !== true)
      accountNode.set(`${a.provider}\u0000${a.account_id}`, a);
  }
  const contained = new Set(edges.filter((e) => e.edge_type === 'CONTAINS').map((e) => e.target_id));
  const seen = new Set(edges.map((e) => edgeKey(e.source_id, e.target_id, e.edge_type)));
  const out: NetworkEdge[] = [];
  for (const asset of assets) {
    if (HIERARCHY_TYPES.has(asset.asset_type) || contained.has(asset.id) || !asset.account_id) continue;
    const account = accountNode.get(`${asset.provider}\u0000${asset.account_id}`);
    if (!account || seen.has(edgeKey(account.id, asset.id, 'CONTAINS'))) continue;
    out.push(
      makeEdge(account.id, asset.id, 'CONTAINS', {
        relationship: 'ACCOUNT_CONTAINS_REGION',
        description: `account ${asset.account_id} contains ${asset.name}`,
        properties: { hierarchy: true },
      }),
    );
  }
  return out;
}
