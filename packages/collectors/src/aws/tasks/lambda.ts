import {
  GetPolicyCommand,
  ListEventSourceMappingsCommand,
  ListFunctionsCommand,
  ListFunctionUrlConfigsCommand,
} from '@aws-sdk/client-lambda';
import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { errorCode } from '../../governor/classify.js';
import { makeEdge } from '../../link/relationship-linker.js';
import { buildAsset } from '../../model/asset-builder.js';
import { type Relation, rel, relations } from '../../model/relation.js';
import { type AwsTask, arnOf, pages } from '../context.js';
import { parsePolicy } from '../policy-document.js';
import { ec2Arn } from './ec2-network.js';

const IDENTIFIER = /^(arn:aws[a-z-]*:[a-z0-9-]+:|https:\/\/sqs\.)/;

/**
 * Lambda functions. Environment variables: names only; a value that is an identifier (an ARN,
 * a queue URL) becomes a reference and every other value is dropped unread. A function URL with
 * `AuthType: NONE` answers anyone on the internet: the function is exposed, with an
 * `INTERNET_EXPOSED` edge on 443 (INVENTORY_REFERENCE.md 3.1, "public ... function URL").
 */
export const lambdaTask: AwsTask = {
  name: 'lambda',
  scope: 'regional',
  async run(ctx) {
    const lambda = ctx.client('lambda');
    const triggers = new Map<string, Relation[]>();
    for await (const page of pages(
      ctx,
      'lambda',
      'ListEventSourceMappings',
      (t, s) => lambda.send(new ListEventSourceMappingsCommand({ Marker: t }), { abortSignal: s }),
      (p) => p.NextMarker,
    ))
      for (const m of page.EventSourceMappings ?? []) {
        if (!m.FunctionArn) continue;
        const r = rel(m.EventSourceArn, 'INVOKES', 'TRIGGERED_BY', {
          reverse: true,
          description: 'event source mapping',
          properties: { state: m.State, batch_size: m.BatchSize },
        });
        if (r) triggers.set(m.FunctionArn, [...(triggers.get(m.FunctionArn) ?? []), r]);
      }
    const assets: CloudAsset[] = [];
    const edges: NetworkEdge[] = [];
    for await (const page of pages(
      ctx,
      'lambda',
      'ListFunctions',
      (t, s) => lambda.send(new ListFunctionsCommand({ Marker: t }), { abortSignal: s }),
      (p) => p.NextMarker,
    ))
      for (const f of page.Functions ?? []) {
        if (!f.FunctionArn || !f.FunctionName) continue;
        const FunctionName = f.FunctionName;
        let policyPublic = false;
        const invokers: Relation[] = [];
        try {
          const policy = await ctx.call('lambda', 'GetPolicy', (s) =>
            lambda.send(new GetPolicyCommand({ FunctionName }), { abortSignal: s }),
          );
          for (const st of parsePolicy(policy.Policy)) {
            if (st.Effect !== 'Allow') continue;
            const principal = st.Principal;
            if (principal === '*' || (typeof principal === 'object' && principal?.AWS === '*'))
              policyPublic = true;
            const source = JSON.stringify(st.Condition ?? {}).match(/"(arn:aws[a-z-]*:[^"]+)"/)?.[1];
            const r = rel(source, 'INVOKES', 'TRIGGERED_BY', {
              reverse: true,
              description: 'resource policy',
            });
            if (r) invokers.push(r);
          }
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          if (errorCode(error) !== 'ResourceNotFoundException')
            ctx.partial(`GetPolicy ${FunctionName}: ${errorCode(error)}`);
        }
        const urls: { AuthType?: string; FunctionUrl?: string }[] = [];
        try {
          for await (const up of pages(
            ctx,
            'lambda',
            'ListFunctionUrlConfigs',
            (t, s) =>
              lambda.send(new ListFunctionUrlConfigsCommand({ FunctionName, Marker: t }), { abortSignal: s }),
            (p) => p.NextMarker,
          ))
            urls.push(...(up.FunctionUrlConfigs ?? []));
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          if (errorCode(error) !== 'ResourceNotFoundException')
            ctx.partial(`ListFunctionUrlConfigs ${FunctionName}: ${errorCode(error)}`);
        }
        const openUrl = urls.some((u) => u.AuthType === 'NONE');
        const urlHosts = urls.flatMap((u) => {
          try {
            return u.FunctionUrl ? [new URL(u.FunctionUrl).host.toLowerCase()] : [];
          } catch {
            return [];
          }
        });
        const env = f.Environment?.Variables ?? {};
        const envRefs = Object.values(env)
          .filter((v) => IDENTIFIER.test(v))
          .map((v) => rel(v, 'REFERENCES', 'DEPENDS_ON', { description: 'environment reference' }));
        assets.push(
          buildAsset({
            arn: f.FunctionArn,
            name: FunctionName,
            asset_type: 'LAMBDA_FUNCTION',
            provider: 'AWS',
            region: ctx.region,
            account_id: ctx.account,
            metadata: {
              runtime: f.Runtime,
              handler: f.Handler,
              package_type: f.PackageType,
              memory_size: f.MemorySize,
              timeout: f.Timeout,
              role_arn: f.Role,
              vpc_config: f.VpcConfig?.VpcId
                ? {
                    vpc_id: f.VpcConfig.VpcId,
                    subnet_ids: f.VpcConfig.SubnetIds,
                    security_group_ids: f.VpcConfig.SecurityGroupIds,
                  }
                : null,
              environment_keys: Object.keys(env).sort(),
              event_sources: (triggers.get(f.FunctionArn) ?? []).map((r) => r.target),
              function_url_auth: urls[0]?.AuthType ?? null,
              policy_allows_public: policyPublic,
            },
            aliases: [`${f.FunctionArn}:$LATEST`, ...urlHosts],
            relations: [
              ...relations(
                rel(f.Role, 'ASSUMES_ROLE', 'RUNS_ON', { description: 'execution role' }),
                rel(f.KMSKeyArn, 'REFERENCES', 'ENCRYPTED_BY_KMS'),
                rel(
                  arnOf(
                    ctx,
                    'logs',
                    `log-group:${f.LoggingConfig?.LogGroup ?? `/aws/lambda/${FunctionName}`}`,
                  ),
                  'LOGS_TO',
                  'LOGS_TO',
                ),
                ...(f.VpcConfig?.SubnetIds ?? []).map((sn) =>
                  rel(ec2Arn(ctx, 'subnet', sn), 'CONTAINS', 'SUBNET_CONTAINS_INSTANCE', { reverse: true }),
                ),
                ...(f.VpcConfig?.SecurityGroupIds ?? []).map((g) =>
                  rel(ec2Arn(ctx, 'security-group', g), 'ATTACHED_TO', 'PROTECTED_BY_SG'),
                ),
                ...envRefs,
              ),
              ...invokers,
              ...(triggers.get(f.FunctionArn) ?? []),
            ],
            is_internet_exposed: policyPublic || openUrl,
          }),
        );
        const asset = assets[assets.length - 1];
        if (openUrl && asset)
          edges.push(
            makeEdge('0.0.0.0/0', asset.id, 'INTERNET_EXPOSED', {
              relationship: 'INTERNET_REACHABLE',
              cidr: '0.0.0.0/0',
              ports: [443],
              port_range: '443',
              protocol: 'TCP',
              description: 'function URL without authentication',
            }),
          );
      }
    return { assets, edges };
  },
};
