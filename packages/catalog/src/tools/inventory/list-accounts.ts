import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Dataset } from '../../dataset/dataset.js';
import type { CloudAsset } from '../../model/asset.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';

export interface AccountItem {
  account_id: string;
  provider: string;
  assets: number;
  regions: string[];
  internet_exposed: number;
  open_findings: number;
  name: string | null;
  external: boolean;
}

/** Accounts seen on assets, most assets first; assets without an account are `unknown`. */
export function accountItems(dataset: Dataset): AccountItem[] {
  return dataset.derived('inventory:accounts', (d) => {
    const idx = d.indexes;
    const groups = new Map<string, CloudAsset[]>();
    for (const a of d.assets) {
      const key = a.account_id ?? 'unknown';
      const list = groups.get(key);
      if (list) list.push(a);
      else groups.set(key, [a]);
    }
    const items: AccountItem[] = [];
    for (const [accountId, assets] of groups) {
      const regions = new Set<string>();
      let exposed = 0;
      let open = 0;
      let account: CloudAsset | undefined;
      for (const a of assets) {
        regions.add(a.region);
        if (a.is_internet_exposed) exposed += 1;
        open += idx.findingStats(a.id).open;
        if (!account && a.asset_type === 'CLOUD_ACCOUNT') account = a;
      }
      items.push({
        account_id: accountId,
        provider: assets[0]?.provider ?? 'unknown',
        assets: assets.length,
        regions: [...regions].sort(),
        internet_exposed: exposed,
        open_findings: open,
        name: account?.name ?? null,
        external: account?.metadata.external === true,
      });
    }
    return items.sort((a, b) => b.assets - a.assets);
  });
}

/** `list_accounts`: accounts, subscriptions and projects with per-account counts. */
export function registerListAccounts(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_accounts',
    title: 'List accounts',
    description:
      'Accounts, subscriptions and projects seen on assets, most assets first, with regions, exposure and open findings. name comes from the CLOUD_ACCOUNT asset of the account; external marks accounts referenced but not collected.',
    category: 'inventory',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: { limit: limitArg(100), cursor: cursorArg(), dataset: datasetArg() },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const page = paginate(accountItems(dataset), {
        dataset,
        query: { tool: 'list_accounts' },
        limit: args.limit,
        cursor: args.cursor,
      });
      return { dataset: dataset.name, ...page };
    },
  });
}
