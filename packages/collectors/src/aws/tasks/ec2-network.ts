import {
  DescribeInternetGatewaysCommand,
  DescribeNatGatewaysCommand,
  DescribeNetworkInterfacesCommand,
  DescribeRouteTablesCommand,
  DescribeSubnetsCommand,
  DescribeVpcPeeringConnectionsCommand,
  DescribeVpcsCommand,
  type Tag,
} from '@aws-sdk/client-ec2';
import type { CloudAsset } from '@cloudg/catalog';
import { awsTags, buildAsset } from '../../model/asset-builder.js';
import { type Relation, rel, relations } from '../../model/relation.js';
import { type AwsTask, type AwsTaskContext, arnOf, pages } from '../context.js';

function nameTag(tags: Tag[] | undefined, fallback: string): string {
  return tags?.find((t) => t.Key === 'Name')?.Value || fallback;
}

export function ec2Arn(ctx: AwsTaskContext, kind: string, id: string): string {
  return arnOf(ctx, 'ec2', `${kind}/${id}`);
}

function ec2Asset(
  ctx: AwsTaskContext,
  type: string,
  kind: string,
  id: string,
  tags: Tag[] | undefined,
  metadata: Record<string, unknown>,
  rels: Relation[],
): CloudAsset {
  return buildAsset({
    arn: ec2Arn(ctx, kind, id),
    name: nameTag(tags, id),
    asset_type: type,
    provider: 'AWS',
    region: ctx.region,
    account_id: ctx.account,
    tags: awsTags(tags),
    metadata,
    relations: rels,
  });
}

/** VPCs, subnets, route tables, internet and NAT gateways, peering and network interfaces. */
export const ec2NetworkTask: AwsTask = {
  name: 'vpc',
  scope: 'regional',
  async run(ctx) {
    const ec2 = ctx.client('ec2');
    const assets: CloudAsset[] = [];
    type Paged = { NextToken?: string };
    const token = (p: Paged) => p.NextToken;

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeVpcs',
      (t, s) => ec2.send(new DescribeVpcsCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const v of page.Vpcs ?? []) {
        if (!v.VpcId) continue;
        assets.push(
          ec2Asset(
            ctx,
            'VPC',
            'vpc',
            v.VpcId,
            v.Tags,
            { vpc_id: v.VpcId, cidr_block: v.CidrBlock, is_default: v.IsDefault, state: v.State },
            [],
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeSubnets',
      (t, s) => ec2.send(new DescribeSubnetsCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const sn of page.Subnets ?? []) {
        if (!sn.SubnetId) continue;
        assets.push(
          ec2Asset(
            ctx,
            'SUBNET',
            'subnet',
            sn.SubnetId,
            sn.Tags,
            {
              subnet_id: sn.SubnetId,
              vpc_id: sn.VpcId,
              cidr_block: sn.CidrBlock,
              availability_zone: sn.AvailabilityZone,
              map_public_ip_on_launch: sn.MapPublicIpOnLaunch,
            },
            relations(
              rel(sn.VpcId && ec2Arn(ctx, 'vpc', sn.VpcId), 'CONTAINS', 'VPC_CONTAINS_SUBNET', {
                reverse: true,
              }),
            ),
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeRouteTables',
      (t, s) => ec2.send(new DescribeRouteTablesCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const rt of page.RouteTables ?? []) {
        if (!rt.RouteTableId) continue;
        const rels: Relation[] = relations(
          rel(rt.VpcId && ec2Arn(ctx, 'vpc', rt.VpcId), 'CONTAINS', null, { reverse: true }),
        );
        const routes: Record<string, unknown>[] = [];
        for (const r of rt.Routes ?? []) {
          const gateway =
            r.GatewayId ??
            r.NatGatewayId ??
            r.TransitGatewayId ??
            r.VpcPeeringConnectionId ??
            r.NetworkInterfaceId ??
            r.InstanceId;
          routes.push({
            destination: r.DestinationCidrBlock ?? r.DestinationIpv6CidrBlock ?? r.DestinationPrefixListId,
            target: gateway,
            state: r.State,
          });
          if (gateway && gateway !== 'local')
            rels.push(
              ...relations(
                rel(gateway, 'ROUTE', null, { properties: { destination: r.DestinationCidrBlock } }),
              ),
            );
        }
        for (const assoc of rt.Associations ?? [])
          if (assoc.SubnetId)
            rels.push(
              ...relations(
                rel(assoc.SubnetId, 'ATTACHED_TO', null, {
                  reverse: true,
                  description: 'route table association',
                }),
              ),
            );
        assets.push(
          ec2Asset(
            ctx,
            'ROUTE_TABLE',
            'route-table',
            rt.RouteTableId,
            rt.Tags,
            { route_table_id: rt.RouteTableId, vpc_id: rt.VpcId, routes },
            rels,
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeInternetGateways',
      (t, s) => ec2.send(new DescribeInternetGatewaysCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const igw of page.InternetGateways ?? []) {
        if (!igw.InternetGatewayId) continue;
        const rels = (igw.Attachments ?? []).flatMap((a) =>
          relations(rel(a.VpcId && ec2Arn(ctx, 'vpc', a.VpcId), 'ATTACHED_TO')),
        );
        assets.push(
          ec2Asset(
            ctx,
            'INTERNET_GATEWAY',
            'internet-gateway',
            igw.InternetGatewayId,
            igw.Tags,
            { internet_gateway_id: igw.InternetGatewayId },
            rels,
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeNatGateways',
      (t, s) => ec2.send(new DescribeNatGatewaysCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const nat of page.NatGateways ?? []) {
        if (!nat.NatGatewayId) continue;
        const publicIps = (nat.NatGatewayAddresses ?? []).map((a) => a.PublicIp).filter(Boolean);
        assets.push(
          ec2Asset(
            ctx,
            'NAT_GATEWAY',
            'natgateway',
            nat.NatGatewayId,
            nat.Tags,
            {
              nat_gateway_id: nat.NatGatewayId,
              vpc_id: nat.VpcId,
              subnet_id: nat.SubnetId,
              state: nat.State,
              public_ips: publicIps,
            },
            relations(
              rel(nat.SubnetId && ec2Arn(ctx, 'subnet', nat.SubnetId), 'CONTAINS', null, { reverse: true }),
            ),
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeVpcPeeringConnections',
      (t, s) => ec2.send(new DescribeVpcPeeringConnectionsCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const pcx of page.VpcPeeringConnections ?? []) {
        if (!pcx.VpcPeeringConnectionId) continue;
        const requester = pcx.RequesterVpcInfo;
        const accepter = pcx.AccepterVpcInfo;
        const vpcArn = (info: typeof requester) =>
          info?.VpcId
            ? `arn:${ctx.partition}:ec2:${info.Region ?? ctx.region}:${info.OwnerId ?? ctx.account}:vpc/${info.VpcId}`
            : null;
        const cross = (requester?.OwnerId ?? ctx.account) !== (accepter?.OwnerId ?? ctx.account);
        assets.push(
          ec2Asset(
            ctx,
            'VPC_PEERING',
            'vpc-peering-connection',
            pcx.VpcPeeringConnectionId,
            pcx.Tags,
            {
              peering_id: pcx.VpcPeeringConnectionId,
              status: pcx.Status?.Code,
              requester_vpc: requester?.VpcId,
              accepter_vpc: accepter?.VpcId,
            },
            relations(
              rel(vpcArn(requester), 'PEERING', 'VPC_PEERED', {
                reverse: true,
                properties: { cross_account: cross || undefined },
              }),
              rel(vpcArn(accepter), 'PEERING', 'VPC_PEERED', {
                properties: { cross_account: cross || undefined },
              }),
            ),
          ),
        );
      }

    for await (const page of pages(
      ctx,
      'ec2',
      'DescribeNetworkInterfaces',
      (t, s) => ec2.send(new DescribeNetworkInterfacesCommand({ NextToken: t }), { abortSignal: s }),
      token,
    ))
      for (const eni of page.NetworkInterfaces ?? []) {
        if (!eni.NetworkInterfaceId) continue;
        const publicIp = eni.Association?.PublicIp;
        assets.push(
          ec2Asset(
            ctx,
            'NETWORK_INTERFACE',
            'network-interface',
            eni.NetworkInterfaceId,
            eni.TagSet,
            {
              network_interface_id: eni.NetworkInterfaceId,
              interface_type: eni.InterfaceType,
              private_ip: eni.PrivateIpAddress,
              public_ip: publicIp,
              description: eni.Description,
            },
            relations(
              rel(eni.SubnetId && ec2Arn(ctx, 'subnet', eni.SubnetId), 'CONTAINS', null, { reverse: true }),
              rel(
                eni.Attachment?.InstanceId && ec2Arn(ctx, 'instance', eni.Attachment.InstanceId),
                'ATTACHED_TO',
              ),
              ...(eni.Groups ?? []).map((g) =>
                rel(g.GroupId && ec2Arn(ctx, 'security-group', g.GroupId), 'ATTACHED_TO'),
              ),
            ),
          ),
        );
      }
    return { assets };
  },
};
