import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { errorCode } from '../../governor/classify.js';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { type Relation, rel, relations } from '../../model/relation.js';
import { type AwsTask, pages } from '../context.js';
import { ec2Arn } from './ec2-network.js';

/**
 * Application and network load balancers with their listeners, target groups and registered
 * targets. The listeners give the ports an internet-facing balancer is exposed on (on its
 * `INTERNET_EXPOSED` edge, so reachability findings name them) and the certificates that secure it
 * (`REFERENCES` / `CERTIFICATE_SECURES`). A listener listing that is denied leaves the balancer
 * without them and the task PARTIAL.
 */
export const elbv2Task: AwsTask = {
  name: 'elbv2',
  scope: 'regional',
  async run(ctx) {
    const elb = ctx.client('elasticloadbalancing');
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for await (const page of pages(
      ctx,
      'elasticloadbalancing',
      'DescribeLoadBalancers',
      (t, s) => elb.send(new DescribeLoadBalancersCommand({ Marker: t }), { abortSignal: s }),
      (p) => p.NextMarker,
    ))
      for (const lb of page.LoadBalancers ?? []) {
        if (!lb.LoadBalancerArn) continue;
        const exposed = lb.Scheme === 'internet-facing';
        const lbArn = lb.LoadBalancerArn;
        const listeners: {
          Port?: number;
          Protocol?: string;
          Certificates?: { CertificateArn?: string }[];
        }[] = [];
        try {
          for await (const lp of pages(
            ctx,
            'elasticloadbalancing',
            'DescribeListeners',
            (t, s) =>
              elb.send(new DescribeListenersCommand({ LoadBalancerArn: lbArn, Marker: t }), {
                abortSignal: s,
              }),
            (p) => p.NextMarker,
          ))
            listeners.push(...(lp.Listeners ?? []));
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          ctx.partial(`DescribeListeners ${lb.LoadBalancerName ?? lbArn}: ${errorCode(error)}`);
        }
        const ports = [
          ...new Set(listeners.map((l) => l.Port).filter((p): p is number => p !== undefined)),
        ].sort((a, b) => a - b);
        const certificates = [
          ...new Set(listeners.flatMap((l) => (l.Certificates ?? []).map((c) => c.CertificateArn))),
        ].filter((c): c is string => !!c);
        const asset = buildAsset({
          arn: lb.LoadBalancerArn,
          name: lb.LoadBalancerName,
          asset_type: 'LOAD_BALANCER',
          provider: 'AWS',
          region: ctx.region,
          account_id: ctx.account,
          metadata: {
            type: lb.Type,
            scheme: lb.Scheme,
            dns_name: lb.DNSName,
            vpc_id: lb.VpcId,
            state: lb.State?.Code,
            listeners: listeners.map((l) => ({ port: l.Port, protocol: l.Protocol })),
          },
          aliases: lb.DNSName ? [lb.DNSName.toLowerCase()] : [],
          relations: relations(
            ...(lb.AvailabilityZones ?? []).map((z) =>
              rel(z.SubnetId && ec2Arn(ctx, 'subnet', z.SubnetId), 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', {
                reverse: true,
              }),
            ),
            ...(lb.SecurityGroups ?? []).map((g) =>
              rel(ec2Arn(ctx, 'security-group', g), 'ATTACHED_TO', 'PROTECTED_BY_SG'),
            ),
            ...certificates.map((c) =>
              rel(c, 'REFERENCES', 'CERTIFICATE_SECURES', { description: 'listener certificate' }),
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
              ports,
              port_range: ports.length > 0 ? ports.join(',') : null,
              description: 'internet-facing load balancer',
            }),
          );
      }
    for await (const page of pages(
      ctx,
      'elasticloadbalancing',
      'DescribeTargetGroups',
      (t, s) => elb.send(new DescribeTargetGroupsCommand({ Marker: t }), { abortSignal: s }),
      (p) => p.NextMarker,
    ))
      for (const tg of page.TargetGroups ?? []) {
        if (!tg.TargetGroupArn) continue;
        const arn = tg.TargetGroupArn;
        const health = await ctx.call('elasticloadbalancing', 'DescribeTargetHealth', (s) =>
          elb.send(new DescribeTargetHealthCommand({ TargetGroupArn: arn }), { abortSignal: s }),
        );
        const targets: Relation[] = [];
        for (const d of health.TargetHealthDescriptions ?? []) {
          const id = d.Target?.Id;
          if (!id) continue;
          // Instance targets are ids, Lambda targets ARNs, IP targets addresses (resolved only when an ENI has them).
          const target = tg.TargetType === 'instance' ? ec2Arn(ctx, 'instance', id) : id;
          targets.push(
            ...relations(
              rel(target, 'LOAD_BALANCER_TARGET', 'LB_TARGETS_INSTANCE', {
                properties: { port: d.Target?.Port, state: d.TargetHealth?.State },
              }),
            ),
          );
        }
        assets.push(
          buildAsset({
            arn,
            name: tg.TargetGroupName,
            asset_type: 'TARGET_GROUP',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            metadata: { target_type: tg.TargetType, protocol: tg.Protocol, port: tg.Port, vpc_id: tg.VpcId },
            relations: [
              ...relations(
                ...(tg.LoadBalancerArns ?? []).map((lb) =>
                  rel(lb, 'LOAD_BALANCER_TARGET', 'LOAD_BALANCED_BY', { reverse: true }),
                ),
              ),
              ...targets,
            ],
          }),
        );
      }
    return { assets, edges };
  },
};
