import { getContinuationToken } from '@azure/arm-storage';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, hostOf, listAll } from '../context.js';

/**
 * Storage accounts. Exposed when public network access is on without a deny-by-default network
 * rule set and blob public access is allowed (the reference's "public network access without a
 * deny ACL"). As for Key Vault and Cosmos DB, each virtual network rule lets its subnet in and
 * each resource instance rule its resource (`GRANTS_ACCESS` with `network_rule`), and a
 * customer-managed key is an `ENCRYPTED_BY_KMS` reference to its vault's host name, the alias
 * the Key Vault collector gives the vault (the key URI itself matches no asset).
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
          ip_rules: (sa.networkRuleSet?.ipRules ?? []).map((r) => r.iPAddressOrRange),
          virtual_network_rules: (sa.networkRuleSet?.virtualNetworkRules ?? []).length,
          network_bypass: sa.networkRuleSet?.bypass,
        },
        aliases: sa.primaryEndpoints?.blob ? [new URL(sa.primaryEndpoints.blob).host.toLowerCase()] : [],
        relations: relations(
          rel(hostOf(sa.encryption?.keyVaultProperties?.keyVaultUri), 'REFERENCES', 'ENCRYPTED_BY_KMS', {
            properties: {
              key_uri: sa.encryption?.keyVaultProperties?.keyVaultUri,
              key_name: sa.encryption?.keyVaultProperties?.keyName,
            },
          }),
          ...(sa.networkRuleSet?.virtualNetworkRules ?? []).map((r) =>
            rel(r.virtualNetworkResourceId, 'GRANTS_ACCESS', null, {
              reverse: true,
              properties: { network_rule: 'virtual_network' },
            }),
          ),
          ...(sa.networkRuleSet?.resourceAccessRules ?? []).map((r) =>
            rel(r.resourceId, 'GRANTS_ACCESS', null, {
              reverse: true,
              properties: { network_rule: 'resource_instance' },
            }),
          ),
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
