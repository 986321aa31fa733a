import type { Dataset } from '../../dataset/dataset.js';
import { topRisks } from '../../findings/top-risks.js';
import type { Severity } from '../../model/severity.js';

export interface RiskyAsset {
  asset: string;
  id: string;
  type: string;
  score: number;
  internet_exposed: boolean;
  top_finding: string;
}

/**
 * The assets to fix first, as `top_risks` ranks them (the same scoring, on the same graphs),
 * in the compact form the prompts embed. Only open findings at or above `minSeverity` count.
 */
export function riskiestAssets(dataset: Dataset, top: number, minSeverity: Severity = 'INFO'): RiskyAsset[] {
  return topRisks(dataset, { top, minSeverity }).items.map((item) => ({
    asset: item.asset.name,
    id: item.asset.id,
    type: item.asset.type,
    score: item.score,
    internet_exposed: item.asset.internet_exposed,
    top_finding: item.top_findings[0]?.title ?? '',
  }));
}
