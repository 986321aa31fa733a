import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/dataset/dataset.js';
import { generateReachabilityFindings } from '../../src/findings/reachability.js';
import { topRisks } from '../../src/findings/top-risks.js';
import { internetEntryPoints, internetReach } from '../../src/graph/index.js';
import { CloudAssetSchema } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import { FindingSchema } from '../../src/model/finding.js';

function edge(
  source: string,
  target: string,
  edge_type: string,
  extra: Partial<NetworkEdge> = {},
): NetworkEdge {
  return {
    id: `${source}-${edge_type}-${target}`,
    source_id: source,
    target_id: target,
    edge_type,
    relationship: null,
    properties: {},
    description: null,
    ports: [],
    port_range: null,
    protocol: 'TCP',
    cidr: null,
    direction: 'ingress',
    ...extra,
  };
}

/**
 * An estate whose only internet entry point is an asset: `proxy` is the source of an ingress
 * rule with an internet CIDR into `sg-app`, which `app` is attached to. `db` is attached to
 * nothing the internet reaches.
 */
function entryAssetEstate(): Dataset {
  const asset = (id: string, asset_type: string) =>
    CloudAssetSchema.parse({ id, asset_type, provider: 'aws' });
  return new Dataset({
    name: 'entry-asset',
    kind: 'inventory',
    source: 'inline',
    assets: [
      asset('proxy', 'EC2_INSTANCE'),
      asset('sg-app', 'SECURITY_GROUP'),
      asset('app', 'EC2_INSTANCE'),
      asset('db', 'RDS_INSTANCE'),
    ],
    edges: [
      edge('proxy', 'sg-app', 'SECURITY_GROUP_RULE', { cidr: '0.0.0.0/0', port_range: '443' }),
      edge('app', 'sg-app', 'ATTACHED_TO'),
      edge('app', 'db', 'GRANTS_ACCESS'),
    ],
    findings: [
      FindingSchema.parse({ id: 'f-proxy', title: 'Old kernel', severity: 'HIGH', resource_id: 'proxy' }),
    ],
  });
}

describe('what the internet reaches when an entry point is an asset', () => {
  it('counts the entry asset as reached, with the hops after it, and not what an identity grant leads to', () => {
    const ds = entryAssetEstate();
    expect(internetEntryPoints(ds)).toEqual(['proxy']);
    const reach = internetReach(ds);
    expect(reach.assets().map((a) => a.id)).toEqual(['app', 'proxy', 'sg-app']);
    expect(reach.pathTo('app')).toEqual(['proxy', 'sg-app', 'app']);
    expect(reach.pathTo('proxy')).toEqual(['proxy']);
    expect(reach.reaches('db')).toBe(false);
  });

  it('gives top_risks and the reachability findings the same answer as the walk', () => {
    const ds = entryAssetEstate();
    const [item] = topRisks(ds, { top: 1, minSeverity: null }).items;
    expect(item?.asset.id).toBe('proxy');
    expect(item?.components).toMatchObject({ internet_reachable: true, exposure_factor: 1.5 });
    const exposed = generateReachabilityFindings(ds)
      .filter(({ finding }) => finding.title.startsWith('Unexpected internet-exposed'))
      .map(({ asset }) => asset.id);
    expect(exposed).toEqual(['app', 'proxy']);
  });
});
