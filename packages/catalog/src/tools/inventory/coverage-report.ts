import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { summariseCoverage } from '../../model/coverage.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';

export const NO_COVERAGE_NOTE =
  'This dataset has no coverage records (they exist only for live collections via map_inventory / collect_assets).';

/** `coverage_report`: collector success and failure per provider, account and region. */
export function registerCoverageReport(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'coverage_report',
    title: 'Coverage report',
    description:
      'Which collectors succeeded or failed per provider, account and region during a live collection, so gaps such as AccessDenied are visible before the map is trusted. Loaded maps carry no coverage records.',
    category: 'inventory',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    input: { dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      if (dataset.coverage.length === 0)
        return { dataset: dataset.name, records: [], note: NO_COVERAGE_NOTE };
      const records = dataset.coverage.map(summariseCoverage);
      const total = records.reduce((n, r) => n + r.total_services, 0);
      const successful = records.reduce((n, r) => n + r.successful, 0);
      const failed = records.reduce((n, r) => n + r.failed, 0);
      return {
        dataset: dataset.name,
        records,
        total_services: total,
        successful,
        failed,
        coverage_pct: total === 0 ? 0 : Math.round((successful / total) * 1000) / 10,
      };
    },
  });
}
