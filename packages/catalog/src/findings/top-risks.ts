import { type AssetBrief, assetBrief, type FindingBrief, findingBrief } from '../conventions/briefs.js';
import { topRiskScore } from '../conventions/risk.js';
import { severitiesAtOrAbove } from '../conventions/severity.js';
import { sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, dependencyGraph, walkDependencies } from '../graph/index.js';
import type { CloudAsset } from '../model/asset.js';
import { type Finding, findingRiskScore } from '../model/finding.js';
import type { Severity } from '../model/severity.js';
import { internetReach } from './exposure.js';

/** How deep `top_risks` counts transitive dependents. */
export const BLAST_DEPTH = 6;
/** Findings each item shows. */
const TOP_FINDINGS = 3;
export const TOP_RISKS_FORMULA = 'max_risk * exposure * blast * volume';

/** The factors of one asset's score, named as the result shows them. */
export interface TopRiskComponents {
  max_finding_risk: number;
  /** 1.5 when internet_reachable, else 1.0. */
  exposure_factor: number;
  /** Flagged internet-exposed, or reached from the internet over network-flow edges. */
  internet_reachable: boolean;
  transitive_dependents: number;
  /** 1 + min(1, log10(1 + transitive_dependents) / 2), to three decimals. */
  blast_factor: number;
  open_findings: number;
  /** 1 + min(0.5, 0.05 * (open_findings - 1)). */
  volume_factor: number;
}

export interface TopRiskItem {
  asset: AssetBrief;
  score: number;
  components: TopRiskComponents;
  top_findings: FindingBrief[];
}

export interface TopRisks {
  dataset: string;
  items: TopRiskItem[];
  total_candidates: number;
  formula: string;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

interface Candidate {
  asset: CloudAsset;
  findings: Finding[];
}

/** Assets with at least one open finding at or above the floor (findings on no asset are ignored). */
function candidates(dataset: Dataset, minSeverity: Severity | null): Candidate[] {
  const allowed = minSeverity === null ? null : new Set(severitiesAtOrAbove(minSeverity));
  const byAsset = new Map<CloudAsset, Finding[]>();
  for (const f of dataset.findings) {
    if (f.is_suppressed || (allowed !== null && !allowed.has(f.severity))) continue;
    const asset = dataset.indexes.assetOfFinding(f);
    if (!asset) continue;
    const list = byAsset.get(asset);
    if (list) list.push(f);
    else byAsset.set(asset, [f]);
  }
  return [...byAsset].map(([asset, findings]) => ({ asset, findings }));
}

/**
 * The assets to fix first: each candidate scored as max finding risk x exposure x blast x volume
 * (see conventions/risk.ts), highest score first, then by asset name; the first `top` returned.
 */
export function topRisks(
  dataset: Dataset,
  options: { top: number; minSeverity: Severity | null; signal?: AbortSignal },
): TopRisks {
  const abort = new AbortCheck(options.signal, 64);
  abort.check();
  const reached = internetReach(dataset, options.signal).parent;
  const dependencies = dependencyGraph(dataset, options.signal);
  const scored = candidates(dataset, options.minSeverity).map(({ asset, findings }) => {
    abort.tick();
    const dependents = walkDependencies(dependencies, asset.id, 'down', BLAST_DEPTH, options.signal).length;
    const exposed = asset.is_internet_exposed || reached.has(asset.id);
    const maxRisk = Math.max(...findings.map(findingRiskScore));
    const factors = topRiskScore({
      maxFindingRisk: maxRisk,
      exposed,
      transitiveDependents: dependents,
      openFindings: findings.length,
    });
    const components: TopRiskComponents = {
      max_finding_risk: maxRisk,
      exposure_factor: factors.exposure,
      internet_reachable: exposed,
      transitive_dependents: dependents,
      blast_factor: round3(factors.blast),
      open_findings: findings.length,
      volume_factor: round3(factors.volume),
    };
    return { asset, findings, score: factors.score, components };
  });
  scored.sort(
    (a, b) => b.score - a.score || (a.asset.name < b.asset.name ? -1 : a.asset.name > b.asset.name ? 1 : 0),
  );
  return {
    dataset: dataset.name,
    items: scored.slice(0, options.top).map((s) => ({
      asset: assetBrief(dataset, s.asset),
      score: s.score,
      components: s.components,
      top_findings: sortFindings(s.findings, 'risk')
        .slice(0, TOP_FINDINGS)
        .map((f) => findingBrief(dataset, f)),
    })),
    total_candidates: scored.length,
    formula: TOP_RISKS_FORMULA,
  };
}
