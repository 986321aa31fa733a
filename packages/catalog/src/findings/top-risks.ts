import { type AssetBrief, assetBrief, type FindingBrief, findingBrief } from '../conventions/briefs.js';
import { topRiskScore } from '../conventions/risk.js';
import { sortFindings } from '../conventions/sorting.js';
import type { Dataset } from '../dataset/dataset.js';
import { AbortCheck, internetReach } from '../graph/index.js';
import type { CloudAsset } from '../model/asset.js';
import type { Finding } from '../model/finding.js';
import { type Severity, severityRank } from '../model/severity.js';
import { findingFacts, suppressedFlags } from './columns.js';
import { dependentCounter } from './dependents.js';
import { groupKeyColumn, UNMAPPED_GROUP } from './summary.js';

/** How deep `top_risks` counts transitive dependents. */
export const BLAST_DEPTH = 6;
/** The cache of transitive dependent counts (see triage-cache.ts). */
export const DEPENDENTS_KEY = 'findings:transitive-dependents';
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
  maxRisk: number;
  open: number;
}

/**
 * Assets with at least one open finding at or above the floor, with their worst risk and count
 * (findings on no asset are ignored). Reads the per-position columns, so a dataset's findings are
 * not each visited in memory.
 */
function candidates(dataset: Dataset, minSeverity: Severity | null): Candidate[] {
  const floor = minSeverity === null ? 0 : severityRank(minSeverity);
  const column = groupKeyColumn(dataset, 'asset');
  const flags = suppressedFlags(dataset);
  const { rank: ranks, risk: risks } = findingFacts(dataset);
  const maxRisk = new Float64Array(column.keys.length).fill(-1);
  const open = new Uint32Array(column.keys.length);
  for (let i = 0; i < ranks.length; i += 1) {
    if (flags[i] || (ranks[i] ?? 0) < floor) continue;
    const k = column.flat[column.offsets[i] ?? 0] ?? 0;
    open[k] = (open[k] ?? 0) + 1;
    maxRisk[k] = Math.max(maxRisk[k] ?? -1, risks[i] ?? 0);
  }
  const out: Candidate[] = [];
  column.keys.forEach((key, k) => {
    const asset = key === UNMAPPED_GROUP ? undefined : dataset.indexes.assetById(key);
    if (asset && (open[k] ?? 0) > 0) out.push({ asset, maxRisk: maxRisk[k] ?? 0, open: open[k] ?? 0 });
  });
  return out;
}

/** The open findings of an asset at or above the floor, riskiest first. */
function riskiest(
  dataset: Dataset,
  asset: CloudAsset,
  minSeverity: Severity | null,
  count: number,
): Finding[] {
  const floor = minSeverity === null ? 0 : severityRank(minSeverity);
  const open = dataset.indexes
    .findingsOf(asset.id)
    .filter((f) => !f.is_suppressed && severityRank(f.severity) >= floor);
  return sortFindings(open, 'risk').slice(0, count);
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
  const reach = internetReach(dataset, options.signal);
  // Dependents depend on edges only: counted once per asset, kept across suppressions.
  const counted = dataset.derived(DEPENDENTS_KEY, () => new Map<string, number>());
  const countDependents = dependentCounter(dataset, BLAST_DEPTH, options.signal);
  const found = candidates(dataset, options.minSeverity);
  const scored = found.map(({ asset, maxRisk, open }) => {
    abort.tick();
    let dependents = counted.get(asset.id);
    if (dependents === undefined) {
      dependents = countDependents(asset.id);
      counted.set(asset.id, dependents);
    }
    const exposed = asset.is_internet_exposed || reach.reaches(asset.id);
    const factors = topRiskScore({
      maxFindingRisk: maxRisk,
      exposed,
      transitiveDependents: dependents,
      openFindings: open,
    });
    return { asset, factors, exposed, dependents, maxRisk, open };
  });
  // Highest score first, then by name. Only the first `top` are shown, so the candidates (tens of
  // thousands on a large estate, many with equal scores) are ordered by score alone, and names
  // compared only among those that score at least as high as the last one shown.
  const scores = Float64Array.from(scored, (c) => c.factors.score);
  const byScore = Uint32Array.from(scored, (_, i) => i).sort(
    (a, b) => (scores[b] as number) - (scores[a] as number),
  );
  const last = byScore[Math.min(options.top, byScore.length) - 1];
  const floor = last === undefined ? Number.POSITIVE_INFINITY : (scores[last] as number);
  const shown: typeof scored = [];
  for (const i of byScore) {
    if ((scores[i] as number) < floor) break;
    shown.push(scored[i] as (typeof scored)[number]);
  }
  shown.sort(
    (a, b) =>
      b.factors.score - a.factors.score ||
      (a.asset.name < b.asset.name ? -1 : a.asset.name > b.asset.name ? 1 : 0),
  );
  shown.length = Math.min(shown.length, options.top);
  return {
    dataset: dataset.name,
    items: shown.map((s) => {
      const components: TopRiskComponents = {
        max_finding_risk: s.maxRisk,
        exposure_factor: s.factors.exposure,
        internet_reachable: s.exposed,
        transitive_dependents: s.dependents,
        blast_factor: round3(s.factors.blast),
        open_findings: s.open,
        volume_factor: round3(s.factors.volume),
      };
      return {
        asset: assetBrief(dataset, s.asset),
        score: s.factors.score,
        components,
        top_findings: riskiest(dataset, s.asset, options.minSeverity, TOP_FINDINGS).map((f) =>
          findingBrief(dataset, f),
        ),
      };
    }),
    total_candidates: scored.length,
    formula: TOP_RISKS_FORMULA,
  };
}
