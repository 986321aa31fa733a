import type { Registry } from '@cloudg/core';
import type { Workspace } from '../workspace/workspace.js';
import { datasetArg } from './arguments.js';
import { crossAccountOverview } from './context/cross-account.js';
import { datasetPrompt, summaryUri } from './define.js';

export function registerTrustPrompt(registry: Registry<Workspace>): void {
  datasetPrompt(registry, {
    name: 'cross_account_trust_review',
    title: 'Cross-account trust review',
    description:
      'Review the trust relationships that cross account boundaries in a dataset: external accounts, broad trust, missing conditions.',
    sensitivity: 'confidential',
    arguments: [datasetArg],
    build: (_ctx, dataset) => ({
      task: [
        'Review the trust relationships that cross account boundaries in the dataset the context names.',
        '',
        '1. `cross_account_edges(external_only=true)`, then every cross-account edge by account pair.',
        "2. `get_edges(edge_types=['IAM_TRUST'])` and",
        "   `get_edges(edge_types=['GRANTS_ACCESS'], cross_account_only=true)`.",
        '3. `lateral_movement_paths()`: the chains a compromised external principal could follow.',
        '4. `organization_topology(include_policies=true)`: SCPs that limit the blast radius.',
        '',
        'Flag unknown or external accounts, trust that is too broad (account root, wildcards) and missing',
        'external-id conditions, and recommend how to tighten each, with its evidence.',
      ].join('\n'),
      context: { dataset: dataset.name, ...crossAccountOverview(dataset) },
      embed: [summaryUri(dataset)],
    }),
  });
}
