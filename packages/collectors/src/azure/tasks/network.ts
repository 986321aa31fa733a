import { getContinuationToken, type NetworkSecurityGroup, type SecurityRule } from '@azure/arm-network';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, listAll } from '../context.js';

/** Source prefixes that mean "anyone on the internet" in an NSG rule. */
export const INTERNET_PREFIXES = new Set(['*', '0.0.0.0/0', 'internet', 'any', '::/0']);

function ruleSources(rule: SecurityRule): string[] {
  const prefixes = [rule.sourceAddressPrefix, ...(rule.sourceAddressPrefixes ?? [])].filter(
    (p): p is string => !!p,
  );
  const groups = (rule.sourceApplicationSecurityGroups ?? [])
    .map((g) => g.id)
    .filter((g): g is string => !!g);
  return [...prefixes, ...groups];
}

function portsOf(rule: SecurityRule): { ports: number[]; port_range: string } {
  const ranges = [rule.destinationPortRange, ...(rule.destinationPortRanges ?? [])].filter(
    (r): r is string => !!r,
  );
  const ports = ranges.filter((r) => /^\d+$/.test(r)).map(Number);
  return { ports, port_range: ranges.map((r) => (r === '*' ? '0-65535' : r)).join(',') };
}

/** Does the NSG allow inbound traffic from the internet? */
export function nsgOpenToInternet(nsg: NetworkSecurityGroup): boolean {
  return (nsg.securityRules ?? []).some(
    (r) =>
      r.direction === 'Inbound' &&
      r.access === 'Allow' &&
      ruleSources(r).some((s) => INTERNET_PREFIXES.has(s.toLowerCase())),
  );
}

/**
 * VNets with their subnets, NSGs with their inbound rules as `SECURITY_GROUP_RULE` edges from the
 * source prefix (a CIDR, a service tag, `*`, or an application security group's id) to the NSG
 * (INVENTORY_REFERENCE.md 5.3), and public IP addresses.
 */
export const azureNetworkTask: AzureTask = {
  name: 'azure_network',
  async run(ctx) {
    const net = ctx.client('network');
    const opts = { abortSignal: ctx.signal };
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for (const vnet of await listAll(
      ctx,
      'network',
      () => net.virtualNetworks.listAll(opts),
      getContinuationToken,
    )) {
      if (!vnet.id) continue;
      assets.push(
        buildAsset({
          arn: vnet.id,
          name: vnet.name,
          asset_type: 'VNET',
          provider: 'AZURE',
          region: vnet.location,
          account_id: ctx.subscription,
          tags: azureTags(vnet.tags),
          metadata: { address_prefixes: vnet.addressSpace?.addressPrefixes ?? [] },
        }),
      );
      for (const subnet of vnet.subnets ?? []) {
        if (!subnet.id) continue;
        assets.push(
          buildAsset({
            arn: subnet.id,
            name: subnet.name,
            asset_type: 'SUBNET',
            provider: 'AZURE',
            region: vnet.location,
            account_id: ctx.subscription,
            metadata: { address_prefix: subnet.addressPrefix, vnet: vnet.name },
            relations: relations(
              rel(vnet.id, 'CONTAINS', 'VPC_CONTAINS_SUBNET', { reverse: true }),
              rel(subnet.networkSecurityGroup?.id, 'ATTACHED_TO', 'PROTECTED_BY_SG'),
            ),
          }),
        );
      }
    }
    for (const nsg of await listAll(
      ctx,
      'network',
      () => net.networkSecurityGroups.listAll(opts),
      getContinuationToken,
    )) {
      if (!nsg.id) continue;
      const asset = buildAsset({
        arn: nsg.id,
        name: nsg.name,
        asset_type: 'NSG',
        provider: 'AZURE',
        region: nsg.location,
        account_id: ctx.subscription,
        tags: azureTags(nsg.tags),
        metadata: { rules: (nsg.securityRules ?? []).length, open_to_internet: nsgOpenToInternet(nsg) },
      });
      assets.push(asset);
      for (const rule of nsg.securityRules ?? []) {
        if (rule.direction !== 'Inbound' || rule.access !== 'Allow') continue;
        const { ports, port_range } = portsOf(rule);
        const protocol = !rule.protocol || rule.protocol === '*' ? 'ALL' : rule.protocol.toUpperCase();
        for (const source of ruleSources(rule)) {
          const world = INTERNET_PREFIXES.has(source.toLowerCase());
          edges.push(
            makeEdge(world ? '0.0.0.0/0' : source, asset.id, 'SECURITY_GROUP_RULE', {
              ports,
              port_range,
              protocol,
              cidr: world ? '0.0.0.0/0' : source,
              direction: 'ingress',
              properties: { rule: rule.name, priority: rule.priority, source_prefix: source },
            }),
          );
        }
      }
    }
    for (const ip of await listAll(
      ctx,
      'network',
      () => net.publicIPAddresses.listAll(opts),
      getContinuationToken,
    )) {
      if (!ip.id) continue;
      assets.push(
        buildAsset({
          arn: ip.id,
          name: ip.name,
          asset_type: 'PUBLIC_IP',
          provider: 'AZURE',
          region: ip.location,
          account_id: ctx.subscription,
          tags: azureTags(ip.tags),
          metadata: {
            ip_address: ip.ipAddress,
            allocation: ip.publicIPAllocationMethod,
            fqdn: ip.dnsSettings?.fqdn,
          },
        }),
      );
    }
    return { assets, edges };
  },
};
