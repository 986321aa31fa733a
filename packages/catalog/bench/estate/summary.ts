/**
 * What an estate holds, for benches to print and tests to check: counts per cloud, type and
 * account, the exposed share, cross-account edges, crown jewels per weight class, findings per
 * scanner and severity, the hostile shapes, and probes: names of assets with known properties
 * (an internet-facing entry with a flow path to a database behind it, the hub, a chain's ends).
 */
import { CROWN_JEWEL_WEIGHTS } from '../../src/conventions/risk.js';
import type { CloudAsset } from '../../src/model/asset.js';
import type { NetworkEdge } from '../../src/model/edge.js';
import type { InventorySummary } from '../../src/model/inventory-summary.js';
import { SCANNERS, type Scanner } from './checks.js';
import type { Cloud } from './clouds.js';
import type { PlannedFinding } from './findings.js';
import type { HostileShapes } from './hostile.js';

export interface FlowProbe {
  /** Internet-exposed load balancer (by name). */
  entry: string;
  /** A relational database (crown-jewel weight 10) behind it. */
  target: string;
  /** Hops from the entry: load balancer → pool → machine → identity → database. */
  hops: number;
  /** The names along the way, entry first. */
  path: string[];
}

export interface EstateSummary {
  seed: number;
  assets: number;
  edges: number;
  findings: number;
  accounts: number;
  /** Accounts flagged external (vendors that roles trust). */
  external_accounts: number;
  clouds: Record<Cloud, { assets: number; accounts: number }>;
  assets_by_type: Record<string, number>;
  assets_by_account: Record<string, number>;
  edges_by_type: Record<string, number>;
  internet_exposed: number;
  /** `internet_exposed / assets`, four decimals. */
  exposed_share: number;
  /** Edges between assets of different accounts (as `summary.cross_account_edges` counts them). */
  cross_account_edges: number;
  /** IAM_TRUST edges whose ends are in different accounts. */
  cross_account_trust: number;
  /** Crown-jewel assets per weight class (`"10"` … `"5"`). */
  crown_jewels: Record<string, number>;
  findings_by_scanner: Record<Scanner, number>;
  findings_by_severity: Record<string, number>;
  hostile: HostileShapes;
  probes: { flow: FlowProbe[] };
}

function count<T>(items: Iterable<T>, key: (item: T) => string): Record<string, number> {
  const out = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return Object.fromEntries([...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** Up to `max` internet-facing load balancers with a database reachable behind them. */
function flowProbes(assets: readonly CloudAsset[], edges: readonly NetworkEdge[], max: number): FlowProbe[] {
  const byId = new Map(assets.map((a) => [a.id, a]));
  const out = new Map<string, NetworkEdge[]>();
  const follow = new Set(['LOAD_BALANCER_TARGET', 'ASSUMES_ROLE', 'GRANTS_ACCESS']);
  for (const e of edges) {
    if (!follow.has(e.edge_type)) continue;
    const list = out.get(e.source_id);
    if (list) list.push(e);
    else out.set(e.source_id, [e]);
  }
  const probes: FlowProbe[] = [];
  for (const entry of assets) {
    if (probes.length >= max) break;
    if (!entry.is_internet_exposed || !['LOAD_BALANCER', 'APPLICATION_GATEWAY'].includes(entry.asset_type))
      continue;
    // Breadth first over the hops a request and its credentials take, up to five.
    const parent = new Map<string, string>([[entry.id, '']]);
    let frontier = [entry.id];
    let found: string | null = null;
    for (let depth = 0; depth < 5 && !found && frontier.length; depth += 1) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const e of out.get(id) ?? []) {
          if (parent.has(e.target_id)) continue;
          parent.set(e.target_id, id);
          const t = byId.get(e.target_id);
          if (t && (CROWN_JEWEL_WEIGHTS[t.asset_type] ?? 0) === 10) {
            found = t.id;
            break;
          }
          next.push(e.target_id);
        }
        if (found) break;
      }
      frontier = next;
    }
    if (!found) continue;
    const path: string[] = [];
    for (let id: string | undefined = found; id; id = parent.get(id) || undefined)
      path.unshift(byId.get(id)?.name ?? id);
    probes.push({ entry: entry.name, target: path[path.length - 1] ?? '', hops: path.length - 1, path });
  }
  return probes;
}

export function summarise(input: {
  seed: number;
  assets: readonly CloudAsset[];
  edges: readonly NetworkEdge[];
  findings: readonly PlannedFinding[];
  inventory: InventorySummary;
  hostile: HostileShapes;
}): EstateSummary {
  const { assets, edges, findings, inventory } = input;
  const accountCloud = new Map<string, Cloud>();
  for (const a of assets)
    if (a.account_id && a.metadata.external !== true) accountCloud.set(a.account_id, a.provider);
  const clouds = {} as Record<Cloud, { assets: number; accounts: number }>;
  for (const cloud of ['AWS', 'AZURE', 'GCP'] as const) {
    clouds[cloud] = {
      assets: assets.filter((a) => a.provider === cloud).length,
      accounts: [...accountCloud.values()].filter((c) => c === cloud).length,
    };
  }
  const byId = new Map(assets.map((a) => [a.id, a]));
  let trust = 0;
  for (const e of edges) {
    if (e.edge_type !== 'IAM_TRUST') continue;
    const s = byId.get(e.source_id)?.account_id;
    const t = byId.get(e.target_id)?.account_id;
    if (s && t && s !== t) trust += 1;
  }
  const jewels: Record<string, number> = { '10': 0, '9': 0, '8': 0, '7': 0, '6': 0, '5': 0 };
  for (const a of assets) {
    const w = CROWN_JEWEL_WEIGHTS[a.asset_type];
    if (w) jewels[String(w)] = (jewels[String(w)] ?? 0) + 1;
  }
  const byScanner = Object.fromEntries(SCANNERS.map((s) => [s, 0])) as Record<Scanner, number>;
  for (const f of findings) byScanner[f.scanner] += 1;
  return {
    seed: input.seed,
    assets: assets.length,
    edges: edges.length,
    findings: findings.length,
    accounts: accountCloud.size,
    external_accounts: inventory.external_accounts,
    clouds,
    assets_by_type: count(assets, (a) => a.asset_type),
    assets_by_account: inventory.assets_by_account,
    edges_by_type: count(edges, (e) => e.edge_type),
    internet_exposed: inventory.internet_exposed,
    exposed_share: Math.round((inventory.internet_exposed / assets.length) * 10000) / 10000,
    cross_account_edges: inventory.cross_account_edges,
    cross_account_trust: trust,
    crown_jewels: jewels,
    findings_by_scanner: byScanner,
    findings_by_severity: count(findings, (f) => f.finding.severity),
    hostile: input.hostile,
    probes: { flow: flowProbes(assets, edges, 5) },
  };
}
