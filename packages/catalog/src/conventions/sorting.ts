import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import { severityRank } from '../model/severity.js';
import { parseEnum } from './enums.js';
import { assetRiskKey } from './risk.js';

/**
 * The orders of `find_assets` and `list_findings`. Sorts are stable, so ties keep dataset order
 * (which is what the reference's examples show).
 */

export const ASSET_SORTS = ['name', 'type', 'region', 'account', 'risk', 'findings'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];

export const FINDING_SORTS = ['risk', 'severity', 'detected_at', 'title', 'source_tool'] as const;
export type FindingSort = (typeof FINDING_SORTS)[number];

function text(a: string | null, b: string | null): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function byName(a: CloudAsset, b: CloudAsset): number {
  return text(a.name.toLowerCase(), b.name.toLowerCase()) || text(a.id, b.id);
}

/**
 * Sort assets: `name` (case-insensitive, then id), `type`, `region`, `account` ascending;
 * `risk` and `findings` highest first. `descending` reverses whichever order applies.
 */
export function sortAssets(
  dataset: Dataset,
  assets: readonly CloudAsset[],
  sortBy: string,
  descending = false,
): CloudAsset[] {
  const order = parseEnum('sort order', sortBy, ASSET_SORTS);
  let compare: (a: CloudAsset, b: CloudAsset) => number;
  switch (order) {
    case 'name':
      compare = byName;
      break;
    case 'type':
      compare = (a, b) => text(a.asset_type, b.asset_type) || byName(a, b);
      break;
    case 'region':
      compare = (a, b) => text(a.region, b.region) || byName(a, b);
      break;
    case 'account':
      compare = (a, b) => text(a.account_id, b.account_id) || byName(a, b);
      break;
    case 'risk': {
      const keys = new Map(assets.map((a) => [a.id, assetRiskKey(dataset, a)]));
      compare = (a, b) => {
        const [ra, na] = keys.get(a.id) ?? [0, 0];
        const [rb, nb] = keys.get(b.id) ?? [0, 0];
        return rb - ra || nb - na;
      };
      break;
    }
    case 'findings':
      compare = (a, b) => {
        const sa = dataset.indexes.findingStats(a.id);
        const sb = dataset.indexes.findingStats(b.id);
        return sb.open - sa.open || sb.maxRisk - sa.maxRisk;
      };
      break;
  }
  const sorted = [...assets].sort(compare);
  return descending ? sorted.reverse() : sorted;
}

/**
 * Sort findings: `risk` (risk score, then severity, highest first, then id), `severity`
 * (severity, then risk score), `detected_at` (newest first), `title`, `source_tool` (then risk).
 */
export function sortFindings(findings: readonly Finding[], sortBy: string): Finding[] {
  const order = parseEnum('sort order', sortBy, FINDING_SORTS);
  const risk = new Map(findings.map((f) => [f, findingRiskScore(f)]));
  const r = (f: Finding) => risk.get(f) ?? 0;
  const sev = (a: Finding, b: Finding) => severityRank(b.severity) - severityRank(a.severity);
  let compare: (a: Finding, b: Finding) => number;
  switch (order) {
    case 'risk':
      compare = (a, b) => r(b) - r(a) || sev(a, b) || text(a.id, b.id);
      break;
    case 'severity':
      compare = (a, b) => sev(a, b) || r(b) - r(a) || text(a.id, b.id);
      break;
    case 'detected_at':
      compare = (a, b) => text(b.detected_at, a.detected_at) || text(a.id, b.id);
      break;
    case 'title':
      compare = (a, b) => text(a.title.toLowerCase(), b.title.toLowerCase()) || text(a.id, b.id);
      break;
    case 'source_tool':
      compare = (a, b) => text(a.source_tool, b.source_tool) || r(b) - r(a) || text(a.id, b.id);
      break;
  }
  return [...findings].sort(compare);
}
