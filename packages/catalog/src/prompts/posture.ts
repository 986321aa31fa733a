import type { Registry } from '@cloudg/core';
import { compliancePosture, copyPosture } from '../compliance/posture.js';
import { assetBrief } from '../conventions/briefs.js';
import { datasetSummary } from '../dataset/summary.js';
import type { Workspace } from '../workspace/workspace.js';
import { datasetArg } from './arguments.js';
import { riskiestAssets } from './context/top-risks.js';
import { datasetPrompt, summaryUri } from './define.js';

/** Exposed asset briefs the attack surface context lists at most. */
const EXPOSED_SAMPLE = 15;

/** The dataset-wide overview prompts: posture review, executive summary, attack surface. */
export function registerOverviewPrompts(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'security_posture_review',
    title: 'Security posture review',
    description:
      'Review the overall security posture of a dataset: riskiest assets, exposure, identity pivots, missing security services and compliance, ending in a rating and a prioritised list.',
    sensitivity: 'confidential',
    arguments: [datasetArg],
    build: (_ctx, dataset) => ({
      task: [
        'Assess the security posture of the cloud estate in the dataset the context names. The context',
        'holds the five riskiest assets and the compliance posture; the dataset summary is embedded.',
        '',
        'Call cloudg tools as you need them:',
        '1. `top_risks(top=10)`: which assets to fix first, and the score components behind each.',
        '2. `internet_exposure()` and `attack_paths()`: what an outside attacker can reach.',
        '3. `lateral_movement_paths()`: identity pivots from the footholds.',
        '4. `cross_account_edges(external_only=true)`: trust reaching outside the estate.',
        '5. `security_coverage()`: missing GuardDuty, Inspector, WAF and similar services.',
        '6. `compliance_summary()`: the weakest frameworks.',
        '',
        'Deliver an overall rating (critical, poor, fair or good) with its reasons, the five top risks',
        'with evidence (asset, finding, exposure, blast radius), quick wins and structural improvements.',
        'Quote asset names and ids exactly as the tools return them.',
      ].join('\n'),
      context: {
        dataset: dataset.name,
        top_risks: riskiestAssets(dataset, 5),
        compliance: compliancePosture(dataset, null).slice(0, 5).map(copyPosture),
      },
      embed: [summaryUri(dataset)],
    }),
  });

  datasetPrompt(registry, {
    name: 'executive_summary',
    title: 'Executive summary',
    description:
      'A one-page summary of the security state of a dataset for non-technical leadership, from the headline figures.',
    sensitivity: 'internal',
    arguments: [datasetArg],
    build: (_ctx, dataset) => {
      const s = datasetSummary(dataset);
      return {
        task: [
          'Write a one-page executive summary of the cloud security state of the dataset in the context,',
          'for leadership without a technical background. Work from the embedded figures and call',
          '`findings_summary`, `compliance_summary` and `top_risks(top=3)` for anything missing.',
          '',
          'Structure: a one-sentence headline, the size of the estate, the risk level with the three issues',
          'that matter most in business terms, the compliance standing, and three decisions to take with',
          'a rough effort for each. No identifiers, no jargon, rounded numbers.',
        ].join('\n'),
        context: {
          dataset: dataset.name,
          providers: [...s.providers],
          total_assets: s.total_assets,
          total_edges: s.total_edges,
          open_findings: s.open_findings,
          severity_breakdown: { ...s.severity_breakdown },
          accounts: s.accounts,
          regions: s.regions,
          internet_exposed: s.internet_exposed,
          cross_account_edges: s.cross_account_edges,
          compliance_frameworks: [...s.compliance_frameworks],
          assets_by_type: { ...s.assets_by_type },
        },
        embed: [summaryUri(dataset)],
      };
    },
  });

  datasetPrompt(registry, {
    name: 'attack_surface_report',
    title: 'Attack surface report',
    description:
      'Map the external attack surface of a dataset: exposed assets, admin ports open to the world, attack paths to sensitive assets and the fixes.',
    sensitivity: 'confidential',
    arguments: [datasetArg],
    build: (_ctx, dataset) => {
      const exposed = dataset.assets.filter((a) => a.is_internet_exposed);
      const byType: Record<string, number> = {};
      for (const a of exposed) byType[a.asset_type] = (byType[a.asset_type] ?? 0) + 1;
      return {
        task: [
          'Map the external attack surface of the dataset the context names.',
          '',
          '1. `internet_exposure(limit=100)`: every exposed asset, the rules exposing it, sensitive ports',
          '   and WAF protection.',
          '2. `get_edges(internet_only=true, port=22)`, then the same with `port=3389`: admin ports open',
          '   to the world.',
          '3. `attack_paths(max_paths=20)`: routes from the internet to data stores, secrets, keys and roles.',
          "4. For the three worst paths, `find_paths(source='internet', target=<asset>)` and",
          '   `findings_for_asset` on every hop.',
          '',
          'Report the entry points ranked by risk, the sensitive services exposed, the critical paths with',
          'each hop explained, and concrete fixes (close rule X, put a WAF in front of Y, make Z private).',
        ].join('\n'),
        context: {
          dataset: dataset.name,
          internet_exposed_total: exposed.length,
          exposed_by_type: byType,
          exposed_sample: exposed.slice(0, EXPOSED_SAMPLE).map((a) => ({ ...assetBrief(dataset, a) })),
        },
        embed: [summaryUri(dataset)],
      };
    },
  });
}
