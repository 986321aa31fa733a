import {
  DescribeInstancesCommand,
  DescribeSecurityGroupsCommand,
  type IpPermission,
  type SecurityGroup,
} from '@aws-sdk/client-ec2';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { makeEdge } from '../../link/relationship-linker.js';
import { awsTags, buildAsset } from '../../model/asset-builder.js';
import { rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';
import { ec2Arn } from './ec2-network.js';

const WORLD = new Set(['0.0.0.0/0', '::/0']);

function portsOf(p: IpPermission): { ports: number[]; port_range: string; protocol: string } {
  const protocol = p.IpProtocol === '-1' ? 'ALL' : (p.IpProtocol ?? 'ALL').toUpperCase();
  if (protocol === 'ALL' || p.FromPort === undefined || p.FromPort === -1)
    return { ports: [], port_range: '0-65535', protocol };
  const to = p.ToPort ?? p.FromPort;
  const ports =
    to - p.FromPort <= 16
      ? Array.from({ length: to - p.FromPort + 1 }, (_, i) => (p.FromPort as number) + i)
      : [];
  return { ports, port_range: to === p.FromPort ? String(to) : `${p.FromPort}-${to}`, protocol };
}

function cidrsOf(p: IpPermission): string[] {
  return [...(p.IpRanges ?? []).map((r) => r.CidrIp), ...(p.Ipv6Ranges ?? []).map((r) => r.CidrIpv6)].filter(
    (c): c is string => typeof c === 'string',
  );
}

/**
 * The collector network edges of INVENTORY_REFERENCE.md 5.3: one `SECURITY_GROUP_RULE` per rule
 * and CIDR, ingress `cidr -> group`, egress `group -> cidr`. A rule naming another group of the
 * same account (a group pair) becomes `source group -> group`, so the flow graph can follow
 * traffic from the members of one group to the members of the next.
 */
function ruleEdges(
  group: SecurityGroup,
  groupAssetId: string,
  byGroupId: Map<string, string>,
): NetworkEdge[] {
  const edges: NetworkEdge[] = [];
  for (const [direction, perms] of [
    ['ingress', group.IpPermissions ?? []],
    ['egress', group.IpPermissionsEgress ?? []],
  ] as const) {
    for (const p of perms) {
      const { ports, port_range, protocol } = portsOf(p);
      for (const cidr of cidrsOf(p)) {
        const [s, t] = direction === 'ingress' ? [cidr, groupAssetId] : [groupAssetId, cidr];
        edges.push(makeEdge(s, t, 'SECURITY_GROUP_RULE', { ports, port_range, protocol, cidr, direction }));
      }
      for (const pair of p.UserIdGroupPairs ?? []) {
        const other = pair.GroupId ? byGroupId.get(pair.GroupId) : undefined;
        if (!other || other === groupAssetId) continue;
        const [s, t] = direction === 'ingress' ? [other, groupAssetId] : [groupAssetId, other];
        edges.push(makeEdge(s, t, 'SECURITY_GROUP_RULE', { ports, port_range, protocol, direction }));
      }
    }
  }
  return edges;
}

function opensToWorld(group: SecurityGroup): boolean {
  return (group.IpPermissions ?? []).some((p) => cidrsOf(p).some((c) => WORLD.has(c)));
}

/** Security groups with their rules, and instances (with their exposure). */
export const ec2ComputeTask: AwsTask = {
  name: 'ec2',
  scope: 'regional',
  async run(ctx) {
    const ec2 = ctx.client('ec2');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    const groups: SecurityGroup[] = [];
    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeSecurityGroups',
      (t, s) => ec2.send(new DescribeSecurityGroupsCommand({ NextToken: t }), { abortSignal: s }),
      (p) => p.NextToken,
    ))
      groups.push(...(page.SecurityGroups ?? []));
    const byGroupId = new Map<string, string>();
    const worldOpen = new Set<string>();
    for (const g of groups) {
      if (!g.GroupId) continue;
      const asset = buildAsset({
        arn: ec2Arn(ctx, 'security-group', g.GroupId),
        name: g.GroupName ?? g.GroupId,
        asset_type: 'SECURITY_GROUP',
        provider: 'AWS',
        region: ctx.region,
        account_id: ctx.account,
        tags: awsTags(g.Tags),
        metadata: {
          group_id: g.GroupId,
          vpc_id: g.VpcId,
          description: g.Description,
          ingress_rules: (g.IpPermissions ?? []).length,
          egress_rules: (g.IpPermissionsEgress ?? []).length,
          open_to_world: opensToWorld(g),
        },
        relations: relations(
          rel(g.VpcId && ec2Arn(ctx, 'vpc', g.VpcId), 'CONTAINS', null, { reverse: true }),
        ),
      });
      byGroupId.set(g.GroupId, asset.id);
      if (opensToWorld(g)) worldOpen.add(g.GroupId);
      assets.push(asset);
    }
    for (const g of groups) {
      const id = g.GroupId ? byGroupId.get(g.GroupId) : undefined;
      if (id) edges.push(...ruleEdges(g, id, byGroupId));
    }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeInstances',
      (t, s) => ec2.send(new DescribeInstancesCommand({ NextToken: t }), { abortSignal: s }),
      (p) => p.NextToken,
    ))
      for (const reservation of page.Reservations ?? [])
        for (const i of reservation.Instances ?? []) {
          if (!i.InstanceId) continue;
          const groupIds = (i.SecurityGroups ?? []).map((g) => g.GroupId).filter((g): g is string => !!g);
          const publicIp = i.PublicIpAddress;
          assets.push(
            buildAsset({
              arn: ec2Arn(ctx, 'instance', i.InstanceId),
              name: i.Tags?.find((t) => t.Key === 'Name')?.Value || i.InstanceId,
              asset_type: 'EC2',
              provider: 'AWS',
              region: ctx.region,
              account_id: ctx.account,
              tags: awsTags(i.Tags),
              metadata: {
                instance_id: i.InstanceId,
                instance_type: i.InstanceType,
                state: i.State?.Name,
                image_id: i.ImageId,
                private_ip: i.PrivateIpAddress,
                public_ip: publicIp,
                vpc_id: i.VpcId,
                subnet_id: i.SubnetId,
                security_groups: groupIds,
                imds_v2: i.MetadataOptions?.HttpTokens === 'required',
                instance_profile_arn: i.IamInstanceProfile?.Arn,
              },
              // The instance profile ARN resolves to its role through the role's aliases.
              relations: relations(
                rel(i.SubnetId && ec2Arn(ctx, 'subnet', i.SubnetId), 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', {
                  reverse: true,
                }),
                ...groupIds.map((g) =>
                  rel(ec2Arn(ctx, 'security-group', g), 'ATTACHED_TO', 'PROTECTED_BY_SG'),
                ),
                rel(i.IamInstanceProfile?.Arn, 'ASSUMES_ROLE', 'RUNS_ON', {
                  description: 'instance profile',
                }),
                rel(i.ImageId, 'USES_IMAGE'),
              ),
              is_internet_exposed: Boolean(publicIp) && groupIds.some((g) => worldOpen.has(g)),
            }),
          );
        }
    return { assets, edges };
  },
};
