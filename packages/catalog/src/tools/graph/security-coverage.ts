import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

/**
 * `security_coverage`: the security services recorded per account and region, the disabled
 * ones, workloads no enabled vulnerability scanner watches and internet-facing entry points no
 * WAF protects, as `cloudg.inventory.dependencies.security_coverage` reports them.
 */

/** Workload types a vulnerability scanner should cover (AWS only, as the reference checks). */
const SCANNED_WORKLOADS = new Set(['EC2', 'CONTAINER_REGISTRY', 'LAMBDA_FUNCTION']);
/** Internet entry points a WAF should sit in front of. */
const WAF_FRONTED = new Set(['LOAD_BALANCER', 'API_GATEWAY', 'CLOUDFRONT']);

/** A service asset counts as enabled unless the collector wrote `enabled: false`. */
function isEnabled(asset: CloudAsset): boolean {
  return asset.metadata.enabled !== false;
}

function capped<T>(items: readonly T[], limit: number) {
  const shown = items.slice(0, limit);
  return {
    total: items.length,
    returned: shown.length,
    truncated: items.length > shown.length,
    items: shown,
  };
}

function servicesByAccountRegion(dataset: Dataset): Record<string, Record<string, Record<string, boolean>>> {
  const out: Record<string, Record<string, Record<string, boolean>>> = {};
  for (const asset of dataset.assets) {
    const service = asset.metadata.security_service;
    if (typeof service !== 'string' || !service) continue;
    const account = asset.account_id ?? '';
    const region = asset.region || 'global';
    const byRegion = out[account] ?? {};
    out[account] = byRegion;
    const services = byRegion[region] ?? {};
    byRegion[region] = services;
    // Enabled when any of the service's assets there is enabled.
    services[service] = (services[service] ?? false) || isEnabled(asset);
  }
  return out;
}

function gapsOf(services: Record<string, Record<string, Record<string, boolean>>>): string[] {
  const gaps: string[] = [];
  for (const [account, regions] of Object.entries(services))
    for (const [region, flags] of Object.entries(regions))
      for (const [service, enabled] of Object.entries(flags))
        if (!enabled) gaps.push(`${account}/${region}: ${service}`);
  return gaps.sort();
}

export function registerSecurityCoverage(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'security_coverage',
    title: 'Security coverage',
    description:
      "Which security services are enabled per account and region (from every asset whose metadata has security_service), the disabled ones as 'account/region: service' gaps, EC2 instances, container registries and Lambda functions that no enabled VULNERABILITY_SCANNER MONITORS, and internet-exposed load balancers, API gateways and CloudFront distributions without an incoming PROTECTS edge. Each list is {total, returned, truncated, items} capped at limit.",
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      limit: z.number().int().min(1).max(500).default(50).describe('Cap on each of the three lists.'),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const idx = dataset.indexes;
      const services = servicesByAccountRegion(dataset);
      const scanned = new Set<string>();
      const protectedIds = new Set<string>();
      for (const edge of dataset.edges) {
        if (edge.edge_type === 'PROTECTS') protectedIds.add(edge.target_id);
        if (edge.edge_type !== 'MONITORS') continue;
        const scanner = idx.assetById(edge.source_id);
        if (scanner?.asset_type === 'VULNERABILITY_SCANNER' && isEnabled(scanner))
          scanned.add(edge.target_id);
      }
      ctx.throwIfAborted();
      const unscanned = dataset.assets
        .filter((a) => SCANNED_WORKLOADS.has(a.asset_type) && !scanned.has(a.id))
        .map((a) => ({
          name: a.name,
          arn: a.arn,
          type: a.asset_type,
          account_id: a.account_id,
          region: a.region,
        }));
      const withoutWaf = dataset.assets
        .filter((a) => a.is_internet_exposed && WAF_FRONTED.has(a.asset_type) && !protectedIds.has(a.id))
        .map((a) => ({ name: a.name, arn: a.arn, type: a.asset_type, account_id: a.account_id }));
      return {
        dataset: dataset.name,
        services_by_account_region: services,
        gaps: capped(gapsOf(services), args.limit),
        workloads_without_vulnerability_scanning: capped(unscanned, args.limit),
        internet_facing_without_waf: capped(withoutWaf, args.limit),
      };
    },
  });
}
