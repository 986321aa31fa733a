import { getContinuationToken } from '@azure/arm-keyvault';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, hostOf, listAll, publicNetworkOpen, type RoleGrant } from '../context.js';

/**
 * Key vaults: soft delete and purge protection, the permission model (Azure RBAC or access
 * policies), and the network rule set. A vault whose public network access is on without a
 * deny-by-default rule set is exposed (`INTERNET_EXPOSED` from `0.0.0.0/0`). Each access policy
 * grants its principal access to the vault (`GRANTS_ACCESS`, the permissions on the edge), and
 * each virtual network rule lets its subnet in (`GRANTS_ACCESS` with `network_rule`). The vault
 * is known by its host name too, so customer-managed keys elsewhere link to it. Only the
 * management plane is read: no key, secret or certificate.
 */
export const azureKeyVaultTask: AzureTask = {
  name: 'azure_keyvault',
  async run(ctx) {
    const kv = ctx.client('keyvault');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const grants: RoleGrant[] = [];
    for (const vault of await listAll(
      ctx,
      'keyvault',
      () => kv.vaults.listBySubscription({ abortSignal: ctx.signal }),
      getContinuationToken,
    )) {
      if (!vault.id) continue;
      const p = vault.properties;
      const acls = p.networkAcls;
      const ipRules = (acls?.ipRules ?? []).map((r) => r.value).filter((v): v is string => !!v);
      const exposed = publicNetworkOpen(p.publicNetworkAccess, acls?.defaultAction, ipRules);
      const host = hostOf(p.vaultUri);
      const rbac = p.enableRbacAuthorization === true;
      const asset = buildAsset({
        arn: vault.id,
        name: vault.name,
        asset_type: 'KEY_VAULT',
        provider: 'AZURE',
        region: vault.location,
        account_id: ctx.subscription,
        tags: azureTags(vault.tags),
        metadata: {
          vault_uri: p.vaultUri,
          sku: p.sku?.name,
          soft_delete: p.enableSoftDelete !== false,
          soft_delete_retention_days: p.softDeleteRetentionInDays,
          purge_protection: p.enablePurgeProtection === true,
          rbac_authorization: rbac,
          permission_model: rbac ? 'rbac' : 'access_policies',
          access_policies: (p.accessPolicies ?? []).length,
          public_network_access: p.publicNetworkAccess ?? 'Enabled',
          network_default_action: acls?.defaultAction ?? 'Allow',
          network_bypass: acls?.bypass,
          ip_rules: ipRules,
          virtual_network_rules: (acls?.virtualNetworkRules ?? []).length,
          private_endpoints: (p.privateEndpointConnections ?? []).length,
        },
        aliases: host ? [host, `https://${host}/`, `https://${host}`] : [],
        relations: relations(
          ...(acls?.virtualNetworkRules ?? []).map((r) =>
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
            description: 'public network access without a deny rule set',
          }),
        );
      // Access policies are the permission model only without RBAC; with RBAC, ARM keeps them but
      // the data plane ignores them, so they grant nothing.
      if (!rbac)
        for (const policy of p.accessPolicies ?? []) {
          if (!policy.objectId) continue;
          grants.push({
            principalId: policy.objectId,
            principalType: undefined,
            scope: vault.id,
            roleDefinitionId: undefined,
            assignmentId: undefined,
            relationship: 'POLICY_ALLOWS_ACTION',
            properties: {
              via: 'access_policy',
              keys: policy.permissions?.keys,
              secrets: policy.permissions?.secrets,
              certificates: policy.permissions?.certificates,
            },
          });
        }
    }
    return { assets, edges, grants };
  },
};
