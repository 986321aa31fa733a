import { getContinuationToken as computePages } from '@azure/arm-compute';
import {
  type NetworkInterface,
  type NetworkSecurityGroup,
  getContinuationToken as networkPages,
} from '@azure/arm-network';
import type { CloudAsset } from '@cloudg/catalog';
import { buildAsset } from '../../model/asset-builder.js';
import { type Relation, rel, relations } from '../../model/relation.js';
import { type AzureTask, azureTags, listAll } from '../context.js';
import { nsgOpenToInternet } from './network.js';

const lower = (id: string | undefined) => id?.toLowerCase();

/**
 * Virtual machines, placed through their network interfaces: the subnet contains the VM, the
 * NIC's and the subnet's NSGs are attached to it, and it is internet exposed when a NIC has a
 * public IP and one of its NSGs admits the internet. A managed identity's principal id becomes
 * an alias (`entra:principal/<id>`) so role assignments to it link from the VM itself.
 */
export const azureComputeTask: AzureTask = {
  name: 'azure_compute',
  async run(ctx) {
    const compute = ctx.client('compute');
    const net = ctx.client('network');
    const opts = { abortSignal: ctx.signal };
    const nics = await listAll(ctx, 'network', () => net.networkInterfaces.listAll(opts), networkPages);
    const nsgs = await listAll(ctx, 'network', () => net.networkSecurityGroups.listAll(opts), networkPages);
    const subnets = (
      await listAll(ctx, 'network', () => net.virtualNetworks.listAll(opts), networkPages)
    ).flatMap((v) => v.subnets ?? []);
    const nsgById = new Map<string, NetworkSecurityGroup>(
      nsgs.filter((n) => n.id).map((n) => [lower(n.id) as string, n]),
    );
    const nicById = new Map<string, NetworkInterface>(
      nics.filter((n) => n.id).map((n) => [lower(n.id) as string, n]),
    );
    const subnetNsg = new Map(
      subnets.filter((s) => s.id).map((s) => [lower(s.id) as string, s.networkSecurityGroup?.id]),
    );
    const assets: CloudAsset[] = [];
    for (const vm of await listAll(
      ctx,
      'compute',
      () => compute.virtualMachines.listAll(opts),
      computePages,
    )) {
      if (!vm.id) continue;
      const rels: Relation[] = [];
      let publicIp = false;
      const groups = new Set<string>();
      for (const ref of vm.networkProfile?.networkInterfaces ?? []) {
        const nic = ref.id ? nicById.get(lower(ref.id) as string) : undefined;
        if (!nic) continue;
        if (nic.networkSecurityGroup?.id) groups.add(nic.networkSecurityGroup.id);
        for (const cfg of nic.ipConfigurations ?? []) {
          if (cfg.publicIPAddress?.id) {
            publicIp = true;
            rels.push(...relations(rel(cfg.publicIPAddress.id, 'ATTACHED_TO', null, { reverse: true })));
          }
          const subnetId = cfg.subnet?.id;
          if (!subnetId) continue;
          rels.push(...relations(rel(subnetId, 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', { reverse: true })));
          const inherited = subnetNsg.get(subnetId.toLowerCase());
          if (inherited) groups.add(inherited);
        }
      }
      for (const g of groups) rels.push(...relations(rel(g, 'ATTACHED_TO', 'PROTECTED_BY_SG')));
      // A user-assigned identity the VM runs as (the reference's ASSUMES_ROLE / RUNS_ON). Identity
      // resources are not collected, so the relation names the identity's Entra principal, which
      // its role assignments hang from: the VM then reaches what the identity was granted.
      const assigned = Object.entries(vm.identity?.userAssignedIdentities ?? {});
      for (const [identityId, identity] of assigned)
        rels.push(
          ...relations(
            rel(
              identity.principalId && `entra:principal/${identity.principalId.toLowerCase()}`,
              'ASSUMES_ROLE',
              'RUNS_ON',
              {
                description: 'user-assigned managed identity',
                properties: { identity: identityId, client_id: identity.clientId },
              },
            ),
          ),
        );
      const principal = vm.identity?.principalId;
      const open = [...groups].some((g) => {
        const nsg = nsgById.get(g.toLowerCase());
        return nsg ? nsgOpenToInternet(nsg) : false;
      });
      assets.push(
        buildAsset({
          arn: vm.id,
          name: vm.name,
          asset_type: 'VIRTUAL_MACHINE',
          provider: 'AZURE',
          region: vm.location,
          account_id: ctx.subscription,
          tags: azureTags(vm.tags),
          metadata: {
            vm_size: vm.hardwareProfile?.vmSize,
            os_type: vm.storageProfile?.osDisk?.osType,
            identity_type: vm.identity?.type,
            principal_id: principal,
            user_assigned_identities: assigned.length > 0 ? assigned.map(([id]) => id) : undefined,
            password_authentication_disabled: vm.osProfile?.linuxConfiguration?.disablePasswordAuthentication,
          },
          aliases: principal ? [`entra:principal/${principal.toLowerCase()}`] : [],
          relations: rels,
          is_internet_exposed: publicIp && open,
        }),
      );
    }
    return { assets };
  },
};
