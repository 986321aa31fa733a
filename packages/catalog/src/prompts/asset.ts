import type { Registry } from '@cloudg/core';
import { assetBrief, assetUri } from '../conventions/briefs.js';
import { resolveAssetRef } from '../conventions/references.js';
import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';
import type { Workspace } from '../workspace/workspace.js';
import { changeArg, datasetArg, refArg } from './arguments.js';
import { assetDetail } from './context/asset-detail.js';
import { directDependencies, directDependents, transitiveDependents } from './context/dependencies.js';
import { datasetPrompt, isActive, type PromptPlan } from './define.js';

/** Depth the blast radius context follows dependents to. */
const BLAST_DEPTH = 10;
/** Direct dependencies or dependents listed at most. */
const MAX_DIRECT = 20;

/**
 * The asset's own view: embedded from `cloudg://assets/{id}` when the prompt targets the active
 * dataset (the only one resources read), else carried in the JSON context under `asset_detail`.
 */
function withAssetView(
  ws: Workspace,
  dataset: Dataset,
  asset: CloudAsset,
  plan: Omit<PromptPlan, 'embed'>,
): PromptPlan {
  if (isActive(ws, dataset)) return { ...plan, embed: [assetUri(asset.id)] };
  return { ...plan, context: { ...plan.context, asset_detail: assetDetail(dataset, asset) } };
}

/** The prompts about one asset: investigation, blast radius and change impact. */
export function registerAssetPrompts(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'investigate_asset',
    title: 'Investigate asset',
    description:
      'Investigate one asset: configuration, connections, dependencies, findings, blast radius and exposure, ending in recommendations.',
    sensitivity: 'confidential',
    arguments: [refArg, datasetArg],
    build: (ctx, dataset, args) => {
      const asset = resolveAssetRef(dataset, args.ref ?? '');
      return withAssetView(ctx.app, dataset, asset, {
        task: [
          'Investigate the asset the context describes; pass its `id` as `ref` in the calls below. Its',
          'current detail is included.',
          '',
          '1. `get_asset(ref=<id>)`, and `get_asset_metadata` with specific keys, for its configuration.',
          '2. `neighbors(ref, depth=2)` for what it connects to.',
          '3. `depends_on(ref)` and `dependents(ref)` for what it needs and what needs it.',
          '4. `findings_for_asset(ref)`, then `get_finding` on the serious ones.',
          "5. `blast_radius(ref)` and, when it is exposed, `find_paths(source='internet', target=ref)`.",
          '6. `ontology_neighbourhood(ref)` for semantic relations (encryption, protection, ownership).',
          '',
          'Report what it is, who owns it (tags), how it is exposed, what it can reach, what depends on it,',
          'its findings, and recommendations in priority order.',
        ].join('\n'),
        context: { dataset: dataset.name },
      });
    },
  });

  datasetPrompt(registry, {
    name: 'blast_radius_assessment',
    title: 'Blast radius assessment',
    description:
      'Assess what an asset takes down or exposes if it is compromised, deleted or unavailable, with containment and resilience advice.',
    sensitivity: 'confidential',
    arguments: [refArg, datasetArg],
    build: (ctx, dataset, args) => {
      const asset = resolveAssetRef(dataset, args.ref ?? '');
      const dependents = transitiveDependents(dataset, asset.id, BLAST_DEPTH);
      const accounts = new Set<string>();
      for (const a of [asset, ...dependents]) if (a.account_id) accounts.add(a.account_id);
      return withAssetView(ctx.app, dataset, asset, {
        task: [
          'Assess the blast radius of the asset in the context (`asset.id`) when it is (a) compromised',
          'and (b) deleted or unavailable.',
          '',
          '1. `blast_radius(ref=<asset.id>)`: dependency and network reach, sensitive stores within reach.',
          "2. `dependency_tree(ref, direction='down')`: what breaks, layer by layer.",
          '3. `lateral_movement_paths(start=<asset.id>)`: identity pivots from it.',
          '4. `findings_for_asset` on the most critical dependents.',
          '',
          'Report both scenarios with the services, accounts and data affected and how badly, and',
          'recommend containment and resilience measures (least privilege, redundancy, segmentation).',
        ].join('\n'),
        context: {
          dataset: dataset.name,
          asset: assetBrief(dataset, asset),
          transitive_dependents: dependents.length,
          accounts_affected: [...accounts].sort(),
          direct_dependents: directDependents(dataset, asset.id)
            .slice(0, MAX_DIRECT)
            .map((a) => assetBrief(dataset, a)),
        },
      });
    },
  });

  datasetPrompt(registry, {
    name: 'change_impact_analysis',
    title: 'Change impact analysis',
    description:
      'Plan a change to one asset: what depends on it, single points of failure, other accounts affected, and a rollout, rollback and verification plan.',
    sensitivity: 'confidential',
    arguments: [refArg, changeArg, datasetArg],
    build: (ctx, dataset, args) => {
      const asset = resolveAssetRef(dataset, args.ref ?? '');
      const brief = (a: CloudAsset) => assetBrief(dataset, a);
      return withAssetView(ctx.app, dataset, asset, {
        task: [
          'Plan the change the context describes (`planned_change`) to the asset in the context',
          '(`asset.id`). Its direct upstream and downstream dependencies are included.',
          '',
          "1. `dependents(ref=<asset.id>, max_depth=5)` and `dependency_tree(ref, direction='down')`.",
          '2. `shared_dependencies()`: is it a single point of failure?',
          '3. `cross_account_edges(account_id=<asset.account_id>)`: other accounts affected.',
          '4. `get_asset_metadata(ref)` for the settings that change.',
          '',
          'Deliver the affected components ranked by impact, the risks, pre-checks, a rollout and rollback',
          'plan, and how to verify it (for example snapshot_dataset now, collect again afterwards, then',
          'diff_datasets).',
        ].join('\n'),
        context: {
          dataset: dataset.name,
          planned_change: args.change?.trim() || null,
          asset: brief(asset),
          depends_on: directDependencies(dataset, asset.id).slice(0, MAX_DIRECT).map(brief),
          dependents: directDependents(dataset, asset.id).slice(0, MAX_DIRECT).map(brief),
        },
      });
    },
  });
}
