import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import type { Dataset } from '../../dataset/dataset.js';
import { AbortCheck } from '../../graph/index.js';
import type { CloudAsset } from '../../model/asset.js';
import { HIERARCHY_ASSET_TYPES } from '../../model/vocabulary.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { edgeTypesArg, parseEdgeTypes } from './args.js';

/**
 * `cross_account_edges`: edges between assets of two different, known accounts (an OU or
 * organization containing an account is not a crossing), endpoints named by ARN, or by id when
 * there is none, as `cloudg.inventory.dependencies.cross_account_edges` lists them.
 */

interface CrossAccountRow {
  source: string;
  source_account: string;
  target: string;
  target_account: string;
  edge_type: string;
  relationship: string | null;
  external: boolean;
}

/** Accounts outside the mapped estate: the account placeholders the collector flagged external. */
function externalAccounts(dataset: Dataset): Set<string> {
  const out = new Set<string>();
  for (const a of dataset.assets)
    if (a.asset_type === 'CLOUD_ACCOUNT' && a.account_id && a.metadata.external === true)
      out.add(a.account_id);
  return out;
}

/** Every crossing in edge order, cached on the dataset until it changes (the filters run per call). */
function crossAccountRows(dataset: Dataset, signal: AbortSignal): readonly CrossAccountRow[] {
  return dataset.derived('graph.cross_account', (ds) => buildRows(ds, signal));
}

function buildRows(dataset: Dataset, signal: AbortSignal): CrossAccountRow[] {
  const abort = new AbortCheck(signal);
  const idx = dataset.indexes;
  const external = externalAccounts(dataset);
  const isExternal = (a: CloudAsset) =>
    a.metadata.external === true || (a.account_id !== null && external.has(a.account_id));
  const rows: CrossAccountRow[] = [];
  for (const e of dataset.edges) {
    abort.tick();
    const s = idx.assetById(e.source_id);
    const t = idx.assetById(e.target_id);
    if (!s?.account_id || !t?.account_id || s.account_id === t.account_id) continue;
    if (
      e.edge_type === 'CONTAINS' &&
      HIERARCHY_ASSET_TYPES.has(s.asset_type) &&
      HIERARCHY_ASSET_TYPES.has(t.asset_type)
    )
      continue;
    rows.push({
      source: s.arn ?? s.id,
      source_account: s.account_id,
      target: t.arn ?? t.id,
      target_account: t.account_id,
      edge_type: e.edge_type,
      relationship: e.relationship,
      external: isExternal(s) || isExternal(t),
    });
  }
  return rows;
}

export function registerCrossAccountEdges(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'cross_account_edges',
    title: 'Cross-account edges',
    description:
      'Relationships whose two ends are in different accounts, subscriptions or projects: trust, grants, image pulls, peering, shared resources. Rows name endpoints by ARN (or id when there is none): source, source_account, target, target_account, edge_type, relationship, external (one side is an account outside the mapped estate). by_account_pair counts every matching row, not just the page.',
    category: 'graph',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      account_id: z.string().default('').describe('Only edges touching this account.'),
      external_only: z.boolean().default(false).describe('Only edges to accounts outside the mapped estate.'),
      edge_types: edgeTypesArg(),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const types = parseEdgeTypes(dataset, args.edge_types);
      const account = args.account_id.trim();
      const rows = crossAccountRows(dataset, ctx.signal).filter(
        (r) =>
          (types === null || types.has(r.edge_type)) &&
          (!account || r.source_account === account || r.target_account === account) &&
          (!args.external_only || r.external),
      );
      const byPair: Record<string, number> = {};
      for (const r of rows) {
        const key = `${r.source_account} -> ${r.target_account}`;
        byPair[key] = (byPair[key] ?? 0) + 1;
      }
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(rows, {
        dataset,
        query: { tool: 'cross_account_edges', ...query },
        limit,
        cursor,
      });
      return {
        dataset: dataset.name,
        total: page.total,
        offset: page.offset,
        returned: page.returned,
        next_cursor: page.next_cursor,
        truncated: page.truncated,
        by_account_pair: byPair,
        items: page.items,
      };
    },
  });
}
