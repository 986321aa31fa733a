import { getContinuationToken } from '@azure/arm-sql';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, listAll, parseResourceId } from '../context.js';

/** Azure SQL logical servers, their firewall exposure and their databases. */
export const azureSqlTask: AzureTask = {
  name: 'azure_sql',
  async run(ctx) {
    const sql = ctx.client('sql');
    const opts = { abortSignal: ctx.signal };
    const assets: CloudAsset[] = [];
    for (const server of await listAll(ctx, 'sql', () => sql.servers.list(opts), getContinuationToken)) {
      if (!server.id || !server.name) continue;
      const { resourceGroup } = parseResourceId(server.id);
      const serverName = server.name;
      const rules = await listAll(
        ctx,
        'sql',
        () => sql.firewallRules.listByServer(resourceGroup, serverName, opts),
        getContinuationToken,
      );
      const openToAll = rules.some(
        (r) => r.startIpAddress === '0.0.0.0' && r.endIpAddress === '255.255.255.255',
      );
      assets.push(
        buildAsset({
          arn: server.id,
          name: serverName,
          asset_type: 'AZURE_SQL',
          provider: 'AZURE',
          region: server.location,
          account_id: ctx.subscription,
          tags: azureTags(server.tags),
          metadata: {
            fqdn: server.fullyQualifiedDomainName,
            public_network_access: server.publicNetworkAccess,
            minimal_tls_version: server.minimalTlsVersion,
            firewall_rules: rules.length,
            firewall_open_to_all: openToAll,
          },
          aliases: server.fullyQualifiedDomainName ? [server.fullyQualifiedDomainName.toLowerCase()] : [],
          is_internet_exposed: server.publicNetworkAccess !== 'Disabled' && openToAll,
        }),
      );
      for (const db of await listAll(
        ctx,
        'sql',
        () => sql.databases.listByServer(resourceGroup, serverName, opts),
        getContinuationToken,
      )) {
        if (!db.id || db.name === 'master') continue;
        assets.push(
          buildAsset({
            arn: db.id,
            name: db.name,
            asset_type: 'SQL_DATABASE',
            provider: 'AZURE',
            region: db.location,
            account_id: ctx.subscription,
            tags: azureTags(db.tags),
            metadata: { sku: db.sku?.name, status: db.status, server: serverName },
            relations: relations(rel(server.id, 'CONTAINS', null, { reverse: true })),
          }),
        );
      }
    }
    return { assets };
  },
};
