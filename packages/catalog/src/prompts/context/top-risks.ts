import { topRiskScore } from '../../conventions/risk.js';
import { sortFindings } from '../../conventions/sorting.js';
import type { Dataset } from '../../dataset/dataset.js';
import { findingRiskScore } from '../../model/finding.js';
import { type Severity, severityRank } from '../../model/severity.js';
import { transitiveDependents } from './dependencies.js';
import { internetReachable } from './exposure.js';

/** Depth `top_risks` counts transitive dependents to. */
const BLAST_DEPTH = 6;

export interface RiskyAsset {
  asset: string;
  id: string;
  type: string;
  score: number;
  internet_exposed: boolean;
  top_finding: string;
}

/**
 * The assets to fix first, scored the way `top_risks` scores them (worst open finding x exposure
 * x blast x volume), highest first, then by name. Only open findings at or above `minSeverity`
 * count.
 */
export function riskiestAssets(dataset: Dataset, top: number, minSeverity: Severity = 'INFO'): RiskyAsset[] {
  const floor = severityRank(minSeverity);
  const reachable = internetReachable(dataset);
  const scored: RiskyAsset[] = [];
  for (const asset of dataset.assets) {
    const open = dataset.indexes
      .findingsOf(asset.id)
      .filter((f) => !f.is_suppressed && severityRank(f.severity) >= floor);
    if (open.length === 0) continue;
    const worst = sortFindings(open, 'risk')[0];
    if (!worst) continue;
    const { score } = topRiskScore({
      maxFindingRisk: findingRiskScore(worst),
      exposed: asset.is_internet_exposed || reachable.has(asset.id),
      transitiveDependents: transitiveDependents(dataset, asset.id, BLAST_DEPTH).length,
      openFindings: open.length,
    });
    scored.push({
      asset: asset.name,
      id: asset.id,
      type: asset.asset_type,
      score,
      internet_exposed: asset.is_internet_exposed,
      top_finding: worst.title,
    });
  }
  scored.sort((a, b) => b.score - a.score || (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
  return scored.slice(0, top);
}
