import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerCountAssets } from './count-assets.js';
import { registerCoverageReport } from './coverage-report.js';
import { registerFindAssets } from './find-assets.js';
import { registerGetAsset } from './get-asset.js';
import { registerGetAssetMetadata } from './get-asset-metadata.js';
import { registerListAccounts } from './list-accounts.js';
import { registerListAssetTypes } from './list-asset-types.js';
import { registerListRegions } from './list-regions.js';
import { registerListTags } from './list-tags.js';
import { registerOrganizationTopology } from './organization-topology.js';
import { registerUnresolvedReferences } from './unresolved-references.js';

/**
 * Register the eleven inventory tools: find_assets, get_asset, get_asset_metadata, count_assets,
 * list_asset_types, list_accounts, list_regions, list_tags, coverage_report,
 * unresolved_references, organization_topology.
 */
export function registerInventoryTools(registry: Registry<Workspace>): void {
  registerFindAssets(registry);
  registerGetAsset(registry);
  registerGetAssetMetadata(registry);
  registerCountAssets(registry);
  registerListAssetTypes(registry);
  registerListAccounts(registry);
  registerListRegions(registry);
  registerListTags(registry);
  registerCoverageReport(registry);
  registerUnresolvedReferences(registry);
  registerOrganizationTopology(registry);
}
