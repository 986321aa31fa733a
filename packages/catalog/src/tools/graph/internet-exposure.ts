import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { assetBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Dataset } from '../../dataset/dataset.js';
import { edgePorts, internetReach, isInternetIngress, opensPort } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';
import type { NetworkEdge } from '../../model/edge.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { parseAssetTypes } from './args.js';

/** Ports whose exposure to the internet is a finding of its own. */
export const SENSITIVE_PORTS = [22, 3389, 3306, 5432, 1433, 27017, 6379, 9200, 5601, 8080, 8443] as const;
/** Internet rules listed per asset at most. */
const MAX_RULES = 10;
const GROUP_TYPES = new Set(['SECURITY_GROUP', 'NSG']);

interface InternetRule {
  edge_type: string;
  ports: string;
  protocol: string | null;
  via: string | null;
}

function portsText(edge: NetworkEdge): string {
  if (edge.port_range) return edge.port_range;
  if (edge.ports.length) return edge.ports.slice(0, 10).join(',');
  return 'all';
}

/** Internet ingress edges into the asset, directly or into a group attached to it. */
function internetEdges(dataset: Dataset, asset: CloudAsset): { edge: NetworkEdge; via: string | null }[] {
  const idx = dataset.indexes;
  const out: { edge: NetworkEdge; via: string | null }[] = [];
  for (const e of idx.incoming(asset.id)) if (isInternetIngress(e)) out.push({ edge: e, via: e.description });
  for (const attach of idx.outgoing(asset.id)) {
    if (attach.edge_type !== 'ATTACHED_TO') continue;
    const group = idx.assetById(attach.target_id);
    if (!group || !GROUP_TYPES.has(group.asset_type)) continue;
    for (const e of idx.incoming(group.id)) if (isInternetIngress(e)) out.push({ edge: e, via: group.name });
  }
  return out;
}

function exposureOf(dataset: Dataset, asset: CloudAsset) {
  const edges = internetEdges(dataset, asset);
  const sensitive = new Set<number>();
  for (const { edge } of edges) {
    const set = edgePorts(edge);
    for (const p of SENSITIVE_PORTS) if (opensPort(set, p)) sensitive.add(p);
  }
  const rules: InternetRule[] = edges.slice(0, MAX_RULES).map(({ edge, via }) => ({
    edge_type: edge.edge_type,
    ports: portsText(edge),
    protocol: edge.protocol,
    via,
  }));
  return {
    ...assetBrief(dataset, asset),
    internet_rules: rules,
    sensitive_ports_open: [...sensitive].sort((a, b) => a - b),
    protected_by_waf: dataset.indexes.incoming(asset.id).some((e) => e.edge_type === 'PROTECTS'),
  };
}

/** `internet_exposure`: exposed assets with the rules, sensitive ports and WAF evidence. */
export function registerInternetExposure(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'internet_exposure',
    title: 'Internet exposure',
    description:
      'Assets flagged internet-exposed, each with its evidence: up to 10 internet ingress rules reaching it directly or through an attached security group or NSG, the sensitive ports they open, and whether a WAF protects it. Most sensitive ports first. include_reachable adds what the reachability analysis reaches from the internet over network-flow edges.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      asset_types: z.array(z.string()).nullable().default(null).describe('Only these AssetType values.'),
      include_reachable: z
        .boolean()
        .default(false)
        .describe('Also list assets transitively reachable from the internet in the graph.'),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseAssetTypes(dataset, args.asset_types);
      const exposed = dataset.assets
        .filter((a) => a.is_internet_exposed && (types === null || types.has(a.asset_type)))
        .map((a) => exposureOf(dataset, a));
      // The reference does not say how items are ordered (its example lists the bastion, then the
      // Azure jump VM): most sensitive ports open first, then most open findings, then by name.
      exposed.sort(
        (a, b) =>
          b.sensitive_ports_open.length - a.sensitive_ports_open.length ||
          b.open_findings - a.open_findings ||
          (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
      );
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(exposed, {
        dataset,
        query: { tool: 'internet_exposure', ...query },
        limit,
        cursor,
      });
      const result: Record<string, unknown> = { dataset: dataset.name, ...page };
      if (args.include_reachable) {
        const reachable = internetReach(dataset, ctx.signal).assets();
        result.graph_reachable = {
          total: reachable.length,
          truncated: reachable.length > limit,
          items: reachable.slice(0, limit).map((a) => assetBrief(dataset, a)),
        };
      }
      return result;
    },
  });
}
