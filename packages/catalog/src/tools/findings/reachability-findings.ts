import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { findingBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { addReachabilityFindings, reachabilityFindings } from '../../findings/add-reachability.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg, limitArg } from '../workspace/args.js';

/** `reachability_findings`: cloudg's own internet-reachability findings, previewed or added. */
export function registerReachabilityFindings(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'reachability_findings',
    title: 'Reachability findings',
    description:
      "Run cloudg's reachability analysis (source_tool cloudg-reachability): CRITICAL for a sensitive data store (RDS, Aurora, Azure SQL, Cloud SQL, DynamoDB) reachable from the internet over network-flow edges, HIGH for another reached resource not expected to face the internet (load balancers, CDNs and internet gateways are; security groups, NSGs, NACLs and target groups are hops), CRITICAL for each sensitive port (22, 3389, 3306, 5432, 1433, 27017, 6379, 9200, 5601, 8080, 8443) an ingress rule opens to the internet. Ids are stable (UUIDv5 of rule and ARN). Preview by default; add_to_dataset appends the new ones (already present by id or by source tool, title and resource are skipped).",
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_state'],
    idempotent: false,
    input: {
      add_to_dataset: z
        .boolean()
        .default(false)
        .describe("Append them to the dataset's findings (otherwise preview only)."),
      limit: limitArg(),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const { generated, fresh } = reachabilityFindings(dataset, ctx.signal);
      const shown = fresh.slice(0, args.limit);
      // Briefs name the asset the analysis found, whether or not the finding is in the dataset yet.
      const items = shown.map(({ finding, asset }) => ({
        ...findingBrief(dataset, finding),
        asset_id: asset.id,
        asset_name: asset.name,
      }));
      if (args.add_to_dataset && fresh.length > 0) {
        await addReachabilityFindings(ctx.app, dataset, ctx.signal, fresh);
        // The other replicas repeat the analysis on the same dataset (the call holds the lease).
        ctx.app.record({ op: 'reachability', dataset: dataset.name });
      }
      return {
        dataset: dataset.name,
        generated: generated.length,
        new: fresh.length,
        added: args.add_to_dataset ? fresh.length : 0,
        total: fresh.length,
        returned: items.length,
        truncated: fresh.length > items.length,
        items,
      };
    },
  });
}
