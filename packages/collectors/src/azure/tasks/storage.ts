import { getContinuationToken } from '@azure/arm-storage';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, listAll } from '../context.js';

/**
 * Storage accounts. Exposed when public network access is on without a deny-by-default network
 * rule set and blob public access is allowed (the reference's "public network access without a
 * deny ACL").
 */
export const azureStorageTask: AzureTask = {
  name: 'azure_storage',
  async run(ctx) {
    const storage = ctx.client('storage');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for (const sa of await listAll(
      ctx,
      'storage',
      () => storage.storageAccounts.list({ abortSignal: ctx.signal }),
      getContinuationToken,
    )) {
      if (!sa.id) continue;
      const publicNetwork =
        sa.publicNetworkAccess !== 'Disabled' && sa.networkRuleSet?.defaultAction !== 'Deny';
      const exposed = publicNetwork && sa.allowBlobPublicAccess === true;
      const asset = buildAsset({
        arn: sa.id,
        name: sa.name,
        asset_type: 'STORAGE_ACCOUNT',
        provider: 'AZURE',
        region: sa.location,
        account_id: ctx.subscription,
        tags: azureTags(sa.tags),
        metadata: {
          kind: sa.kind,
          sku: sa.sku?.name,
          https_only: sa.enableHttpsTrafficOnly,
          minimum_tls_version: sa.minimumTlsVersion,
          allow_blob_public_access: sa.allowBlobPublicAccess,
          public_network_access: sa.publicNetworkAccess,
          network_default_action: sa.networkRuleSet?.defaultAction,
          key_source: sa.encryption?.keySource,
        },
        aliases: sa.primaryEndpoints?.blob ? [new URL(sa.primaryEndpoints.blob).host.toLowerCase()] : [],
        relations: relations(
          rel(sa.encryption?.keyVaultProperties?.keyVaultUri, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
        ),
        is_internet_exposed: exposed,
      });
      assets.push(asset);
      if (exposed)
        edges.push(
          makeEdge('0.0.0.0/0', asset.id, 'INTERNET_EXPOSED', {
            relationship: 'INTERNET_REACHABLE',
            cidr: '0.0.0.0/0',
            description: 'public blob access',
          }),
        );
    }
    return { assets, edges };
  },
};
