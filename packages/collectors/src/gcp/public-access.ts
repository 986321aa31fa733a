import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../link/relationship-linker.js';
import type { PublicGrant } from './principals.js';

/**
 * A resource whose IAM policy grants `allUsers` or `allAuthenticatedUsers` something is open to
 * the internet (INVENTORY_INTERNALS.md 9.5): no principal stands for them; the resource is marked
 * exposed, keeps who and which role in `metadata.public_access`, and gets the collector's
 * `INTERNET_EXPOSED` edge from `0.0.0.0/0` (INVENTORY_REFERENCE.md 5.3).
 */
export function markPublic(asset: CloudAsset, open: readonly PublicGrant[], policy: string): NetworkEdge[] {
  if (open.length === 0) return [];
  asset.is_internet_exposed = true;
  asset.metadata.public_access = open.map(({ member, role }) => ({ member, role }));
  const members = [...new Set(open.map((g) => g.member))].sort();
  return [
    makeEdge('0.0.0.0/0', asset.id, 'INTERNET_EXPOSED', {
      relationship: 'INTERNET_REACHABLE',
      cidr: '0.0.0.0/0',
      description: `${policy} grants ${members.join(', ')}`,
      properties: { members },
    }),
  ];
}
