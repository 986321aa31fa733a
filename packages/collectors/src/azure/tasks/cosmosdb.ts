import { getContinuationToken } from '@azure/arm-cosmosdb';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, hostOf, listAll } from '../context.js';

/**
 * Cosmos DB accounts: the API, public network access and its firewall (IP rules, virtual network
 * filter), whether keys still authenticate (`disableLocalAuth`), TLS, backups and a
 * customer-managed key. Cosmos has no default action: an account with public access on, no IP
 * rule and no virtual network filter accepts every network, so it is exposed; an IP rule of
 * `0.0.0.0` admits Azure datacentres only and does not expose it. Virtual network rules let their
 * subnets in (`GRANTS_ACCESS` with `network_rule`); the key is an `ENCRYPTED_BY_KMS` reference to
 * its vault.
 */
export const azureCosmosDbTask: AzureTask = {
  name: 'azure_cosmosdb',
  async run(ctx) {
    const cosmos = ctx.client('cosmosdb');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for (const account of await listAll(
      ctx,
      'cosmosdb',
      () => cosmos.databaseAccounts.list({ abortSignal: ctx.signal }),
      getContinuationToken,
    )) {
      if (!account.id) continue;
      const ipRules = (account.ipRules ?? []).map((r) => r.ipAddressOrRange).filter((v): v is string => !!v);
      const vnetFilter = account.isVirtualNetworkFilterEnabled === true;
      const publicAccess = account.publicNetworkAccess ?? 'Enabled';
      const exposed =
        publicAccess !== 'Disabled' &&
        ((ipRules.length === 0 && !vnetFilter) || ipRules.some((r) => r === '0.0.0.0/0'));
      const host = hostOf(account.documentEndpoint);
      const asset = buildAsset({
        arn: account.id,
        name: account.name,
        asset_type: 'COSMOS_DB',
        provider: 'AZURE',
        region: account.location,
        account_id: ctx.subscription,
        tags: azureTags(account.tags),
        metadata: {
          kind: account.kind,
          capabilities: (account.capabilities ?? []).map((c) => c.name).filter(Boolean),
          document_endpoint: account.documentEndpoint,
          public_network_access: publicAccess,
          ip_rules: ipRules,
          virtual_network_filter: vnetFilter,
          virtual_network_rules: (account.virtualNetworkRules ?? []).length,
          network_acl_bypass: account.networkAclBypass,
          key_based_auth: account.disableLocalAuth !== true,
          key_based_metadata_write: account.disableKeyBasedMetadataWriteAccess !== true,
          minimal_tls_version: account.minimalTlsVersion,
          backup_policy: account.backupPolicy?.type,
          consistency: account.consistencyPolicy?.defaultConsistencyLevel,
          locations: (account.locations ?? []).map((l) => l.locationName).filter(Boolean),
          customer_managed_key: account.keyVaultKeyUri !== undefined,
          identity_type: account.identity?.type,
          principal_id: account.identity?.principalId,
        },
        aliases: [
          ...(host ? [host] : []),
          ...(account.identity?.principalId
            ? [`entra:principal/${account.identity.principalId.toLowerCase()}`]
            : []),
        ],
        relations: relations(
          rel(hostOf(account.keyVaultKeyUri), 'REFERENCES', 'ENCRYPTED_BY_KMS', {
            properties: { key_uri: account.keyVaultKeyUri },
          }),
          ...(account.virtualNetworkRules ?? []).map((r) =>
            rel(r.id, 'GRANTS_ACCESS', null, {
              reverse: true,
              properties: { network_rule: 'virtual_network' },
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
            ports: [443],
            port_range: '443',
            protocol: 'TCP',
            description: 'public network access with no IP or virtual network filter',
          }),
        );
    }
    return { assets, edges };
  },
};
