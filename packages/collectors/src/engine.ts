import type { CloudAsset, CollectionCoverage, NetworkEdge, OrganizationTopology } from '@cloudg/catalog';
import { newCoverage } from './coverage.js';
import { Governor, type GovernorOptions } from './governor/governor.js';
import { accountHierarchyEdges } from './link/account-hierarchy.js';
import { RelationshipLinker } from './link/relationship-linker.js';
import { relationsOf } from './model/asset-builder.js';
import {
  type CollectorEngine,
  type EngineCollection,
  type EngineHooks,
  type LiveProvider,
  type MapInventoryRequest,
  safely,
} from './port.js';
import type { ProviderCollector } from './provider.js';

export interface CollectorEngineOptions {
  /** The cloud collectors this engine may run, one per provider (from `@cloudg/collectors/aws`, ...). */
  collectors: readonly ProviderCollector[];
  /**
   * Governor settings (retries, backoff, breakers). One governor lives as long as the engine, so
   * learned rates and open breakers carry over between collections, as the reference's
   * process-wide governor does.
   */
  governor?: GovernorOptions;
}

/**
 * A live engine over the real cloud collectors: runs the requested providers' collectors, then
 * links what they declared (relations to typed edges, external account placeholders, unresolved
 * references) and hangs top-level resources under their accounts, so the result is a dataset
 * the graph and findings tools read exactly as they read a loaded map.
 */
export function createCollectorEngine(
  options: CollectorEngineOptions,
): CollectorEngine & { governor: Governor } {
  let hooks: EngineHooks | null = null;
  const governor = new Governor({
    ...options.governor,
    onEvent: (event) => {
      options.governor?.onEvent?.(event);
      const current = hooks;
      if (current) safely(() => current.throttle(event));
    },
  });
  const byProvider = new Map<LiveProvider, ProviderCollector>(options.collectors.map((c) => [c.provider, c]));

  async function run(request: MapInventoryRequest): Promise<EngineCollection> {
    hooks = request.hooks;
    const { signal } = request;
    safely(() => request.hooks.phase('collection'));
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const coverage: CollectionCoverage[] = [];
    const regions: Record<string, string[]> = {};
    let organization: OrganizationTopology | null = null;
    for (const provider of request.providers) {
      signal.throwIfAborted();
      const collector = byProvider.get(provider);
      if (!collector) {
        const record = newCoverage(provider, null, null);
        record.services.push({
          service: `${provider}_full`,
          status: 'SKIPPED',
          asset_count: 0,
          error: `no ${provider} collector is installed in this server`,
          duration_ms: null,
        });
        coverage.push(record);
        safely(() =>
          request.hooks.error('collection', `${provider}: no collector is installed in this server`),
        );
        continue;
      }
      const out = await collector.collect({
        config: request.config,
        regions: request.regions,
        services: request.services,
        signal,
        hooks: request.hooks,
        governor,
      });
      assets.push(...out.assets);
      edges.push(...out.edges);
      coverage.push(...out.coverage);
      regions[provider] = out.regions;
      organization ??= out.organization ?? null;
    }
    signal.throwIfAborted();
    safely(() => request.hooks.progress(`linking ${assets.length} assets`));
    const deduped = foldPlaceholders(dedupeByArn(assets));
    const linker = new RelationshipLinker(deduped);
    linker.seedExisting(edges);
    const linked = linker.link(signal);
    const allAssets = [...deduped, ...linked.externalAssets];
    const allEdges = [...edges, ...linked.edges];
    allEdges.push(...accountHierarchyEdges(allAssets, allEdges));
    return {
      assets: allAssets,
      edges: allEdges,
      coverage,
      unresolved_references: linked.unresolved,
      providers: [...request.providers],
      regions,
      organization,
    };
  }

  return {
    governor,
    mapInventory: (request) => run(request),
    collect: (request) => run({ ...request, services: null, taggingSweep: null }),
  };
}

/**
 * Two assets with the same `arn` are one resource (INVENTORY_REFERENCE.md 3.1): the account node
 * the collector adds and the one Organizations returns, say. The first keeps its id; the later
 * one's metadata fills keys the first lacks, and both keep their declared relations and aliases
 * (two GCP policies naming one member make one principal with the grants of both). Edges
 * already made point at kept ids only, because collector edges are built within one task, where
 * no duplicates occur.
 */
function dedupeByArn(assets: readonly CloudAsset[]): CloudAsset[] {
  const byArn = new Map<string, CloudAsset>();
  const out: CloudAsset[] = [];
  for (const asset of assets) {
    const key = asset.arn?.toLowerCase();
    const first = key ? byArn.get(key) : undefined;
    if (!first) {
      if (key) byArn.set(key, asset);
      out.push(asset);
      continue;
    }
    const relations = unique([...relationsOf(first), ...relationsOf(asset)]);
    const aliases = [...new Set([...listOf(first.metadata.aliases), ...listOf(asset.metadata.aliases)])];
    first.metadata = { ...asset.metadata, ...first.metadata };
    if (relations.length > 0) first.metadata.relations = relations;
    if (aliases.length > 0) first.metadata.aliases = aliases;
    if (first.name === first.account_id && asset.name) first.name = asset.name;
    first.is_internet_exposed = first.is_internet_exposed || asset.is_internet_exposed;
  }
  return out;
}

/**
 * A principal placeholder (`metadata.placeholder`) made where a policy named an identity before
 * the identity itself was collected (a service account of a project collected later) is folded
 * into the collected asset that answers to its `arn`: the real asset takes its relations, and
 * the placeholder goes, so one identity is one node and references to it are not ambiguous.
 * Collector edges never touch principals, so no edge points at a dropped placeholder.
 */
function foldPlaceholders(assets: readonly CloudAsset[]): CloudAsset[] {
  const real = new Map<string, CloudAsset>();
  for (const asset of assets) {
    if (asset.metadata.placeholder === true) continue;
    for (const alias of listOf(asset.metadata.aliases))
      if (typeof alias === 'string' && !real.has(alias.toLowerCase())) real.set(alias.toLowerCase(), asset);
  }
  if (real.size === 0) return [...assets];
  return assets.filter((asset) => {
    if (asset.metadata.placeholder !== true || !asset.arn) return true;
    const target = real.get(asset.arn.toLowerCase());
    if (!target) return true;
    const relations = unique([...relationsOf(target), ...relationsOf(asset)]).filter(
      (r) => r.target !== target.arn,
    );
    if (relations.length > 0) target.metadata.relations = relations;
    target.is_internet_exposed = target.is_internet_exposed || asset.is_internet_exposed;
    return false;
  });
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Relations compared by value: the same grant read twice is one relation. */
function unique<T>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
