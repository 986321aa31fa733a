import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';

/** `unresolved_references`: relations the linker could not resolve to a mapped asset. */
export function registerUnresolvedReferences(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'unresolved_references',
    title: 'Unresolved references',
    description:
      'Relations the linker could not resolve to a mapped asset (for example a role ARN in a service that was not collected): blind spots in the graph. Items are passed through as the mapper stored them.',
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: { limit: limitArg(), cursor: cursorArg(), dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const page = paginate(dataset.unresolved_references, {
        dataset,
        query: { tool: 'unresolved_references' },
        limit: args.limit,
        cursor: args.cursor,
      });
      return { dataset: dataset.name, ...page, items: page.items.map((item) => ({ ...item })) };
    },
  });
}
