/**
 * The AWS collector against aws-sdk-client-mock: pagination, throttling (retried, given up,
 * breaker), access-denied services reported in coverage while collection continues, and
 * cancellation between pages.
 */
import { DescribeTrailsCommand, GetTrailStatusCommand } from '@aws-sdk/client-cloudtrail';
import { DescribeTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeInstancesCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
} from '@aws-sdk/client-ec2';
import {
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetDetectorCommand, ListDetectorsCommand } from '@aws-sdk/client-guardduty';
import { GetAccountAuthorizationDetailsCommand, IAMClient } from '@aws-sdk/client-iam';
import { DescribeKeyCommand, GetKeyPolicyCommand, ListKeysCommand } from '@aws-sdk/client-kms';
import {
  ListEventSourceMappingsCommand,
  ListFunctionsCommand,
  ListFunctionUrlConfigsCommand,
} from '@aws-sdk/client-lambda';
import {
  DescribeOrganizationCommand,
  ListAccountsForParentCommand,
  ListOrganizationalUnitsForParentCommand,
  ListPoliciesCommand,
  ListRootsCommand,
  ListTargetsForPolicyCommand,
} from '@aws-sdk/client-organizations';
import { DescribeDBInstancesCommand } from '@aws-sdk/client-rds';
import {
  GetBucketLoggingCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketReplicationCommand,
  ListBucketsCommand,
} from '@aws-sdk/client-s3';
import { ListSecretsCommand } from '@aws-sdk/client-secrets-manager';
import { CloudgConfig, type CollectionCoverage, type EngineCollection } from '@cloudg/catalog';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AwsCollector } from '../src/aws/index.js';
import {
  createCollectorEngine,
  type EngineHooks,
  type GovernorEvent,
  type GovernorOptions,
  SILENT_HOOKS,
} from '../src/index.js';
import {
  type AwsMocks,
  emptyAwsMocks,
  FAKE_CREDENTIALS,
  REGION,
  sampleAwsMocks,
} from './support/sample-aws.js';

let mocks: AwsMocks;
afterEach(() => mocks.restore());

const throttled = () =>
  Object.assign(new Error('Rate exceeded'), {
    name: 'ThrottlingException',
    $metadata: { httpStatusCode: 400 },
  });
const denied = () =>
  Object.assign(
    new Error(
      'User: arn:aws:iam::111111111111:user/auditor is not authorized to perform: secretsmanager:ListSecrets',
    ),
    {
      name: 'AccessDeniedException',
      $metadata: { httpStatusCode: 400 },
    },
  );

interface Run {
  errors: string[];
  events: GovernorEvent[];
  sleeps: number[];
  coverage: CollectionCoverage[];
  names: string[];
}

async function run(
  options: {
    services?: string[];
    governor?: GovernorOptions;
    signal?: AbortSignal;
    hooks?: Partial<EngineHooks>;
  } = {},
): Promise<Run> {
  const errors: string[] = [];
  const events: GovernorEvent[] = [];
  const sleeps: number[] = [];
  const engine = createCollectorEngine({
    collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
    // No real waiting in tests: the sleeps are recorded instead.
    governor: {
      sleep: async (s) => {
        sleeps.push(s);
      },
      random: () => 0.5,
      ...options.governor,
    },
  });
  const out = await engine.mapInventory({
    config: CloudgConfig.parse({}),
    providers: ['aws'],
    regions: [REGION],
    services: options.services ?? null,
    taggingSweep: null,
    signal: options.signal ?? new AbortController().signal,
    hooks: {
      ...SILENT_HOOKS,
      error: (_phase, message) => errors.push(message),
      throttle: (e) => events.push(e),
      ...options.hooks,
    },
  });
  return {
    errors,
    events,
    sleeps,
    coverage: out.coverage ?? [],
    names: (out.assets ?? []).map((a) => a.name),
  };
}

/** The whole collection of one AWS run over the mocks, for tests that read assets and edges. */
function collectAws(services: string[] | null): Promise<EngineCollection> {
  const engine = createCollectorEngine({
    collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
  });
  return engine.mapInventory({
    config: CloudgConfig.parse({}),
    providers: ['aws'],
    regions: [REGION],
    services,
    taggingSweep: null,
    signal: new AbortController().signal,
    hooks: SILENT_HOOKS,
  });
}

function entry(coverage: CollectionCoverage[], service: string) {
  return coverage.flatMap((c) => c.services).find((s) => s.service === service);
}

describe('services families', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  const ran = (coverage: CollectionCoverage[]) =>
    coverage
      .flatMap((c) => c.services.map((s) => s.service))
      .filter((s) => s !== 'aws_full' && !s.startsWith('sts_'));

  it("logging runs CloudTrail, identity runs IAM, Organizations, KMS and Secrets Manager (map_inventory's families)", async () => {
    expect(ran((await run({ services: ['logging'] })).coverage)).toEqual(['cloudtrail']);
    expect(ran((await run({ services: ['identity'] })).coverage)).toEqual([
      'iam',
      'organizations',
      'kms',
      'secretsmanager',
    ]);
    expect(ran((await run({ services: ['serverless', 'security'] })).coverage)).toEqual([
      'lambda',
      'guardduty',
    ]);
  });
});

describe('CloudTrail coverage', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  const trail = (name: string, home: string, multiRegion: boolean) => ({
    Name: name,
    TrailARN: `arn:aws:cloudtrail:${home}:111111111111:trail/${name}`,
    HomeRegion: home,
    IsMultiRegionTrail: multiRegion,
    S3BucketName: 'trail-logs',
  });

  async function trails(list: ReturnType<typeof trail>[]) {
    mocks.cloudtrail.on(DescribeTrailsCommand).resolves({ trailList: list });
    mocks.cloudtrail.on(GetTrailStatusCommand).resolves({ IsLogging: true });
    const out = await collectAws(['logging']);
    return (out.assets ?? []).filter((a) => a.asset_type === 'CLOUDTRAIL');
  }

  it('marks a region no trail records with the not-enabled node', async () => {
    expect(await trails([])).toMatchObject([
      {
        arn: `cloudg:aws:cloudtrail:${REGION}:111111111111:not-enabled`,
        name: 'CloudTrail (not enabled)',
        region: REGION,
        metadata: {
          security_service: 'cloudtrail',
          enabled: false,
          status: 'not enabled',
          aliases: [`aws-security:cloudtrail:${REGION}:111111111111`],
        },
      },
    ]);
    expect(mocks.cloudtrail.commandCalls(DescribeTrailsCommand)[0]?.args[0].input).toEqual({
      includeShadowTrails: true,
    });
  });

  it('links an enabled GuardDuty detector to the account it monitors (MONITORS / MONITORED_BY)', async () => {
    mocks.guardduty.on(ListDetectorsCommand).resolves({ DetectorIds: ['d-1'] });
    mocks.guardduty.on(GetDetectorCommand).resolves({ Status: 'ENABLED' });
    const out = await collectAws(['security']);
    const detector = (out.assets ?? []).find((a) => a.asset_type === 'THREAT_DETECTOR');
    expect(detector?.metadata).toMatchObject({
      security_service: 'guardduty',
      enabled: true,
      aliases: [`aws-security:guardduty:${REGION}:111111111111`],
    });
    expect((out.edges ?? []).find((e) => e.source_id === detector?.id)).toMatchObject({
      edge_type: 'MONITORS',
      relationship: 'MONITORED_BY',
    });
  });

  it('marks a service whose status may not be read with the node too, access denied, PARTIAL', async () => {
    const denial = (action: string) =>
      Object.assign(
        new Error(`User: arn:aws:iam::111111111111:user/auditor is not authorized to perform: ${action}`),
        {
          name: 'AccessDeniedException',
          $metadata: { httpStatusCode: 400 },
        },
      );
    mocks.cloudtrail.on(DescribeTrailsCommand).rejects(denial('cloudtrail:DescribeTrails'));
    mocks.guardduty.on(ListDetectorsCommand).rejects(denial('guardduty:ListDetectors'));
    const out = await collectAws(['logging', 'security']);
    const nodes = (out.assets ?? []).filter((a) => a.metadata.security_service);
    expect(nodes.map((a) => [a.name, a.asset_type, a.metadata.enabled, a.metadata.status])).toEqual([
      ['CloudTrail (access denied)', 'CLOUDTRAIL', false, 'access denied'],
      ['GuardDuty (access denied)', 'THREAT_DETECTOR', false, 'access denied'],
    ]);
    expect(entry(out.coverage ?? [], 'cloudtrail')).toMatchObject({ status: 'PARTIAL', asset_count: 1 });
    expect(entry(out.coverage ?? [], 'guardduty')?.error).toContain('guardduty: AccessDeniedException');
  });

  it('collects a trail of this region, and counts a multi-region trail of another region as coverage', async () => {
    const local = await trails([trail('main', REGION, false)]);
    expect(local).toMatchObject([
      {
        name: 'main',
        metadata: { enabled: true, aliases: [`aws-security:cloudtrail:${REGION}:111111111111`] },
      },
    ]);
    expect(await trails([trail('org', 'eu-west-1', true)])).toEqual([]);
    expect((await trails([trail('eu-only', 'eu-west-1', false)])).map((a) => a.name)).toEqual([
      'CloudTrail (not enabled)',
    ]);
  });
});

describe('data store and secret relations', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  const ACCT = '111111111111';
  const fn = `arn:aws:lambda:${REGION}:${ACCT}:function:rotate-db`;

  it('links read replicas both ways, associated roles, global table replicas and the rotation function', async () => {
    mocks.rds.on(DescribeDBInstancesCommand).resolves({
      DBInstances: [
        {
          DBInstanceIdentifier: 'orders',
          DBInstanceArn: `arn:aws:rds:${REGION}:${ACCT}:db:orders`,
          ReadReplicaDBInstanceIdentifiers: ['orders-ro'],
          AssociatedRoles: [
            { RoleArn: `arn:aws:iam::${ACCT}:role/rds-s3-import`, FeatureName: 's3Import', Status: 'ACTIVE' },
          ],
        },
        {
          DBInstanceIdentifier: 'orders-ro',
          DBInstanceArn: `arn:aws:rds:${REGION}:${ACCT}:db:orders-ro`,
          ReadReplicaSourceDBInstanceIdentifier: 'orders',
        },
      ],
    });
    mocks.dynamodb.on(ListTablesCommand).resolves({ TableNames: ['sessions'] });
    mocks.dynamodb.on(DescribeTableCommand).resolves({
      Table: {
        TableName: 'sessions',
        TableArn: `arn:aws:dynamodb:${REGION}:${ACCT}:table/sessions`,
        Replicas: [{ RegionName: REGION }, { RegionName: 'eu-west-1', ReplicaStatus: 'ACTIVE' }],
      },
    });
    mocks.secrets.on(ListSecretsCommand).resolves({
      SecretList: [
        { ARN: `arn:aws:secretsmanager:${REGION}:${ACCT}:secret:db-Ab12`, Name: 'db', RotationLambdaARN: fn },
      ],
    });
    mocks.lambda.on(ListFunctionsCommand).resolves({
      Functions: [{ FunctionName: 'rotate-db', FunctionArn: fn, Role: `arn:aws:iam::${ACCT}:role/rotator` }],
    });
    const out = await collectAws(['data', 'secretsmanager', 'lambda']);
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const edges = new Map(
      (out.edges ?? []).map((e) => [`${name.get(e.source_id)} ${e.edge_type} ${name.get(e.target_id)}`, e]),
    );
    expect(edges.get('orders-ro REFERENCES orders')).toMatchObject({ relationship: 'READS_FROM' });
    expect(edges.get('orders REFERENCES orders-ro')).toMatchObject({ relationship: 'REPLICATES_TO' });
    expect(edges.get('rotate-db INVOKES db')).toMatchObject({ relationship: 'ROTATES_SECRET' });
    // Neither the role nor the other region was collected: declared, and listed as unresolved.
    const relationsOf = (n: string) => assets.find((a) => a.name === n)?.metadata.relations;
    expect(relationsOf('orders')).toContainEqual({
      target: `arn:aws:iam::${ACCT}:role/rds-s3-import`,
      edge: 'ASSUMES_ROLE',
      relationship: 'RUNS_ON',
      description: 'associated role',
      properties: { feature: 's3Import', status: 'ACTIVE' },
    });
    expect(relationsOf('sessions')).toContainEqual({
      target: `arn:aws:dynamodb:eu-west-1:${ACCT}:table/sessions`,
      edge: 'REFERENCES',
      relationship: 'REPLICATES_TO',
      description: 'global table replica',
      properties: { status: 'ACTIVE' },
    });
    expect(assets.find((a) => a.name === 'sessions')?.metadata.replica_regions).toEqual([
      REGION,
      'eu-west-1',
    ]);
  });
});

describe('S3 logging, replication and notifications', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('links access logging, replication (bucket and role) and event notifications as the reference does', async () => {
    const ACCT = '111111111111';
    mocks.s3
      .on(ListBucketsCommand)
      .resolves({ Buckets: [{ Name: 'orders' }, { Name: 'orders-logs' }, { Name: 'orders-dr' }] });
    mocks.s3.on(GetBucketLoggingCommand, { Bucket: 'orders' }).resolves({
      LoggingEnabled: { TargetBucket: 'orders-logs', TargetPrefix: 'orders/' },
    });
    mocks.s3.on(GetBucketReplicationCommand, { Bucket: 'orders' }).resolves({
      ReplicationConfiguration: {
        Role: `arn:aws:iam::${ACCT}:role/s3-replication`,
        Rules: [
          {
            ID: 'dr',
            Status: 'Enabled',
            Destination: { Bucket: 'arn:aws:s3:::orders-dr', StorageClass: 'GLACIER' },
          },
          { ID: 'off', Status: 'Disabled', Destination: { Bucket: 'arn:aws:s3:::orders-old' } },
        ],
      },
    });
    mocks.s3.on(GetBucketNotificationConfigurationCommand, { Bucket: 'orders' }).resolves({
      QueueConfigurations: [
        { QueueArn: `arn:aws:sqs:${REGION}:${ACCT}:orders`, Events: ['s3:ObjectCreated:*'] },
      ],
    });
    const out = await collectAws(['storage']);
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const edges = new Map(
      (out.edges ?? []).map((e) => [`${name.get(e.source_id)} ${e.edge_type} ${name.get(e.target_id)}`, e]),
    );
    expect(edges.get('orders LOGS_TO orders-logs')).toMatchObject({ relationship: 'LOGS_TO' });
    expect(edges.get('orders REFERENCES orders-dr')).toMatchObject({
      relationship: 'REPLICATES_TO',
      properties: { rule: 'dr', storage_class: 'GLACIER' },
    });
    const orders = assets.find((a) => a.name === 'orders');
    expect(orders?.metadata).toMatchObject({
      access_logging_bucket: 'orders-logs',
      replication_destinations: ['arn:aws:s3:::orders-dr'],
    });
    // The role and the queue were not collected: declared, and reported unresolved.
    expect(orders?.metadata.relations).toEqual(
      expect.arrayContaining([
        {
          target: `arn:aws:iam::${ACCT}:role/s3-replication`,
          edge: 'ASSUMES_ROLE',
          relationship: 'RUNS_ON',
          description: 'replication role',
        },
        {
          target: `arn:aws:sqs:${REGION}:${ACCT}:orders`,
          edge: 'INVOKES',
          relationship: 'INVOKES',
          description: 'event notification',
          properties: { events: ['s3:ObjectCreated:*'] },
        },
      ]),
    );
    expect((out.unresolved_references ?? []).map((u) => u.target)).toEqual(
      expect.arrayContaining([`arn:aws:iam::${ACCT}:role/s3-replication`]),
    );
    // No replication configuration is the normal case, not a partial collection.
    expect(entry(out.coverage ?? [], 's3')?.status).toBe('SUCCESS');
  });
});

describe('KMS key policies', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it("links the principals a customer key's policy grants, a vendor account as an external placeholder", async () => {
    const key = `arn:aws:kms:${REGION}:111111111111:key/k-1`;
    mocks.kms.on(ListKeysCommand).resolves({ Keys: [{ KeyId: 'k-1', KeyArn: key }] });
    mocks.kms.on(DescribeKeyCommand).resolves({ KeyMetadata: { KeyId: 'k-1', KeyManager: 'CUSTOMER' } });
    mocks.kms.on(GetKeyPolicyCommand).resolves({
      Policy: JSON.stringify({
        Statement: [
          {
            Sid: 'Root',
            Effect: 'Allow',
            Principal: { AWS: 'arn:aws:iam::111111111111:root' },
            Action: 'kms:*',
            Resource: '*',
          },
          {
            Sid: 'Vendor',
            Effect: 'Allow',
            Principal: { AWS: '999999999999' },
            Action: ['kms:Decrypt'],
            Resource: '*',
          },
        ],
      }),
    });
    const out = await collectAws(['kms']);
    const assets = out.assets ?? [];
    const keyAsset = assets.find((a) => a.arn === key);
    const vendor = assets.find((a) => a.arn === 'arn:aws:iam::999999999999:root');
    expect(vendor?.metadata).toMatchObject({ external: true });
    const grants = (out.edges ?? []).filter(
      (e) => e.edge_type === 'GRANTS_ACCESS' && e.target_id === keyAsset?.id,
    );
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      source_id: vendor?.id,
      relationship: 'POLICY_ALLOWS_ACTION',
      properties: { cross_account: true, actions: ['kms:Decrypt'] },
    });
    expect(keyAsset?.metadata.key_policy_read).toBe(true);
  });

  it('keeps a key whose policy it may not read, PARTIAL', async () => {
    mocks.kms
      .on(ListKeysCommand)
      .resolves({ Keys: [{ KeyId: 'k-1', KeyArn: `arn:aws:kms:${REGION}:111111111111:key/k-1` }] });
    mocks.kms.on(DescribeKeyCommand).resolves({ KeyMetadata: { KeyId: 'k-1', KeyManager: 'CUSTOMER' } });
    mocks.kms.on(GetKeyPolicyCommand).rejects(
      Object.assign(new Error('not authorized to perform: kms:GetKeyPolicy'), {
        name: 'AccessDeniedException',
        $metadata: { httpStatusCode: 400 },
      }),
    );
    const { coverage, names } = await run({ services: ['kms'] });
    expect(names).toContain('k-1');
    expect(entry(coverage, 'kms')).toMatchObject({ status: 'PARTIAL' });
    expect(entry(coverage, 'kms')?.error).toContain('GetKeyPolicy k-1: AccessDeniedException');
  });
});

describe('ELBv2 listeners', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('exposes an internet-facing balancer on its listener ports, and links its certificate and targets', async () => {
    const ACCT = '111111111111';
    const lbArn = `arn:aws:elasticloadbalancing:${REGION}:${ACCT}:loadbalancer/app/web/1`;
    const tgArn = `arn:aws:elasticloadbalancing:${REGION}:${ACCT}:targetgroup/web/2`;
    const cert = `arn:aws:acm:${REGION}:${ACCT}:certificate/c-1`;
    mocks.elb.on(DescribeLoadBalancersCommand).resolves({
      LoadBalancers: [
        { LoadBalancerArn: lbArn, LoadBalancerName: 'web', Scheme: 'internet-facing', Type: 'application' },
      ],
    });
    mocks.elb.on(DescribeListenersCommand).resolves({
      Listeners: [
        { Port: 443, Protocol: 'HTTPS', Certificates: [{ CertificateArn: cert }] },
        { Port: 80, Protocol: 'HTTP' },
      ],
    });
    mocks.elb.on(DescribeTargetGroupsCommand).resolves({
      TargetGroups: [
        {
          TargetGroupArn: tgArn,
          TargetGroupName: 'web-tg',
          TargetType: 'instance',
          LoadBalancerArns: [lbArn],
        },
      ],
    });
    mocks.elb.on(DescribeTargetHealthCommand).resolves({ TargetHealthDescriptions: [] });
    const out = await collectAws(['elbv2']);
    const assets = out.assets ?? [];
    const web = assets.find((a) => a.name === 'web');
    const tg = assets.find((a) => a.name === 'web-tg');
    expect(web?.metadata.listeners).toEqual([
      { port: 443, protocol: 'HTTPS' },
      { port: 80, protocol: 'HTTP' },
    ]);
    expect(
      (out.edges ?? []).find((e) => e.edge_type === 'INTERNET_EXPOSED' && e.target_id === web?.id),
    ).toMatchObject({
      ports: [80, 443],
      port_range: '80,443',
    });
    expect(web?.metadata.relations).toContainEqual({
      target: cert,
      edge: 'REFERENCES',
      relationship: 'CERTIFICATE_SECURES',
      description: 'listener certificate',
    });
    expect((out.edges ?? []).find((e) => e.source_id === web?.id && e.target_id === tg?.id)).toMatchObject({
      edge_type: 'LOAD_BALANCER_TARGET',
      relationship: 'LOAD_BALANCED_BY',
    });
  });
});

describe('Lambda function URLs', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('exposes a function whose URL needs no authentication, on 443, and lists its event sources', async () => {
    const fn = (name: string) => `arn:aws:lambda:${REGION}:111111111111:function:${name}`;
    const queue = `arn:aws:sqs:${REGION}:111111111111:orders`;
    mocks.lambda.on(ListFunctionsCommand).resolves({
      Functions: [
        { FunctionName: 'open-fn', FunctionArn: fn('open-fn') },
        { FunctionName: 'iam-fn', FunctionArn: fn('iam-fn') },
      ],
    });
    mocks.lambda.on(ListEventSourceMappingsCommand).resolves({
      EventSourceMappings: [
        { FunctionArn: fn('open-fn'), EventSourceArn: queue, State: 'Enabled', BatchSize: 10 },
      ],
    });
    mocks.lambda
      .on(ListFunctionUrlConfigsCommand, { FunctionName: 'open-fn' })
      .resolves({
        FunctionUrlConfigs: [
          {
            AuthType: 'NONE',
            FunctionUrl: 'https://abc123.lambda-url.us-east-1.on.aws/',
            FunctionArn: fn('open-fn'),
            CreationTime: '2026-01-01T00:00:00Z',
            LastModifiedTime: '2026-01-01T00:00:00Z',
          },
        ],
      })
      .on(ListFunctionUrlConfigsCommand, { FunctionName: 'iam-fn' })
      .resolves({
        FunctionUrlConfigs: [
          {
            AuthType: 'AWS_IAM',
            FunctionUrl: 'https://def456.lambda-url.us-east-1.on.aws/',
            FunctionArn: fn('iam-fn'),
            CreationTime: '2026-01-01T00:00:00Z',
            LastModifiedTime: '2026-01-01T00:00:00Z',
          },
        ],
      });
    const out = await collectAws(['lambda']);
    const assets = out.assets ?? [];
    const open = assets.find((a) => a.name === 'open-fn');
    const closed = assets.find((a) => a.name === 'iam-fn');
    expect(open).toMatchObject({
      is_internet_exposed: true,
      metadata: { function_url_auth: 'NONE', event_sources: [queue] },
    });
    expect(open?.metadata.aliases).toContain('abc123.lambda-url.us-east-1.on.aws');
    expect(closed).toMatchObject({
      is_internet_exposed: false,
      metadata: { function_url_auth: 'AWS_IAM', event_sources: [] },
    });
    const exposure = (out.edges ?? []).filter((e) => e.edge_type === 'INTERNET_EXPOSED');
    expect(exposure).toHaveLength(1);
    expect(exposure[0]).toMatchObject({
      target_id: open?.id,
      ports: [443],
      protocol: 'TCP',
      cidr: '0.0.0.0/0',
    });
  });
});

describe('EBS volumes', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('collects every page of volumes, each attached to its instance and encrypted by its key (the storage family)', async () => {
    const key = `arn:aws:kms:${REGION}:111111111111:key/k-1`;
    mocks.ec2.on(DescribeInstancesCommand).resolves({
      Reservations: [{ Instances: [{ InstanceId: 'i-0web1', State: { Name: 'running' } }] }],
    });
    mocks.ec2
      .on(DescribeVolumesCommand, { NextToken: undefined })
      .resolves({
        Volumes: [
          {
            VolumeId: 'vol-1',
            Size: 8,
            VolumeType: 'gp3',
            Encrypted: true,
            KmsKeyId: key,
            State: 'in-use',
            Attachments: [{ InstanceId: 'i-0web1', Device: '/dev/xvda', DeleteOnTermination: true }],
          },
        ],
        NextToken: 'v2',
      })
      .on(DescribeVolumesCommand, { NextToken: 'v2' })
      .resolves({ Volumes: [{ VolumeId: 'vol-2', Size: 100, Encrypted: false, State: 'available' }] });
    const out = await collectAws(['storage', 'compute']);
    const assets = out.assets ?? [];
    const volumes = assets.filter((a) => a.asset_type === 'EBS_VOLUME');
    expect(volumes.map((v) => [v.name, v.metadata.encrypted, v.metadata.state])).toEqual([
      ['vol-1', true, 'in-use'],
      ['vol-2', false, 'available'],
    ]);
    const instance = assets.find((a) => a.asset_type === 'EC2');
    expect(
      (out.edges ?? []).find((e) => e.source_id === volumes[0]?.id && e.target_id === instance?.id),
    ).toMatchObject({
      edge_type: 'ATTACHED_TO',
      properties: { device: '/dev/xvda', delete_on_termination: true },
    });
    expect(volumes[0]?.metadata.relations).toContainEqual({
      target: key,
      edge: 'REFERENCES',
      relationship: 'ENCRYPTED_BY_KMS',
    });
    expect(entry(out.coverage ?? [], 'ebs_volumes')).toMatchObject({ status: 'SUCCESS', asset_count: 2 });
  });
});

describe('pagination', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('follows NextToken until the last page', async () => {
    mocks.ec2
      .on(DescribeVpcsCommand, { NextToken: undefined })
      .resolves({ Vpcs: [{ VpcId: 'vpc-a' }], NextToken: 't2' })
      .on(DescribeVpcsCommand, { NextToken: 't2' })
      .resolves({ Vpcs: [{ VpcId: 'vpc-b' }], NextToken: 't3' })
      .on(DescribeVpcsCommand, { NextToken: 't3' })
      .resolves({ Vpcs: [{ VpcId: 'vpc-c' }] });
    const { names, coverage } = await run({ services: ['vpc'] });
    expect(names.filter((n) => n.startsWith('vpc-'))).toEqual(['vpc-a', 'vpc-b', 'vpc-c']);
    expect(mocks.ec2.commandCalls(DescribeVpcsCommand)).toHaveLength(3);
    expect(entry(coverage, 'vpc')).toMatchObject({ status: 'SUCCESS', asset_count: 3 });
  });

  it('stops a page loop that repeats its token', async () => {
    mocks.ec2.on(DescribeVpcsCommand).resolves({ Vpcs: [{ VpcId: 'vpc-a' }], NextToken: 'same' });
    const { names } = await run({ services: ['vpc'] });
    expect(mocks.ec2.commandCalls(DescribeVpcsCommand)).toHaveLength(2);
    expect(names.filter((n) => n === 'vpc-a')).toHaveLength(1); // deduplicated by ARN
  });
});

describe('throttling', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('retries a throttled call with backoff and keeps what it then returns', async () => {
    mocks.ec2
      .on(DescribeVpcsCommand)
      .rejectsOnce(throttled())
      .rejectsOnce(throttled())
      .resolves({ Vpcs: [{ VpcId: 'vpc-a' }] });
    const { names, coverage, events, sleeps } = await run({ services: ['vpc'] });
    expect(names).toContain('vpc-a');
    expect(entry(coverage, 'vpc')?.status).toBe('SUCCESS');
    expect(events.filter((e) => e.kind === 'throttled')).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'retry')).toHaveLength(2);
    expect(events.find((e) => e.kind === 'slowed')).toMatchObject({
      bucket: `aws/111111111111/${REGION}/ec2/DescribeVpcs`,
      rate: 10,
    });
    // Decorrelated jitter from a 0.5 s base: uniform(0.5, 1.5) then uniform(0.5, 3 x previous).
    expect(sleeps[0]).toBeCloseTo(1, 5);
    expect(sleeps[1]).toBeCloseTo(1.75, 5);
  });

  it('honours Retry-After when it is longer than the backoff', async () => {
    const hinted = Object.assign(throttled(), { $response: { headers: { 'retry-after': '7' } } });
    mocks.ec2.on(DescribeVpcsCommand).rejectsOnce(hinted).resolves({ Vpcs: [] });
    const { sleeps } = await run({ services: ['vpc'] });
    expect(sleeps).toContain(7);
  });

  it('gives up after max_retries and reports the task as failed, the others still collected', async () => {
    mocks.ec2.on(DescribeVpcsCommand).rejects(throttled());
    mocks.ec2.on(DescribeSubnetsCommand).resolves({ Subnets: [] });
    mocks.secrets.on(ListSecretsCommand).resolves({
      SecretList: [{ ARN: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:s-1', Name: 's' }],
    });
    const { coverage, events, errors, names } = await run({
      services: ['vpc', 'secretsmanager'],
      governor: { maxRetries: 2 },
    });
    expect(mocks.ec2.commandCalls(DescribeVpcsCommand)).toHaveLength(3);
    expect(events.filter((e) => e.kind === 'gave_up')).toHaveLength(1);
    expect(entry(coverage, 'vpc')).toMatchObject({ status: 'FAILED' });
    expect(entry(coverage, 'vpc')?.error).toMatch(/gave up after 3 attempt\(s\)/);
    expect(entry(coverage, 'secretsmanager')?.status).toBe('SUCCESS');
    expect(names).toContain('s');
    expect(errors.some((e) => e.startsWith('aws vpc (111111111111, us-east-1) failed'))).toBe(true);
    expect(entry(coverage, 'aws_full')).toMatchObject({ status: 'PARTIAL' });
  });

  it("opens the bucket's breaker after repeated give-ups and skips the next call without sending it", async () => {
    mocks.ec2.on(DescribeVpcsCommand).rejects(throttled());
    const governor = { maxRetries: 0, breakerThreshold: 1 };
    const engine = createCollectorEngine({
      collectors: [new AwsCollector({ clientSettings: { credentials: FAKE_CREDENTIALS } })],
      governor: { ...governor, sleep: async () => {} },
    });
    const request = {
      config: CloudgConfig.parse({}),
      providers: ['aws'] as const,
      regions: [REGION],
      services: ['vpc'],
      taggingSweep: null,
      signal: new AbortController().signal,
      hooks: SILENT_HOOKS,
    };
    const first = await engine.mapInventory(request);
    expect(entry(first.coverage ?? [], 'vpc')?.status).toBe('FAILED');
    const second = await engine.mapInventory(request);
    const skipped = entry(second.coverage ?? [], 'vpc');
    expect(skipped?.status).toBe('SKIPPED');
    expect(skipped?.error).toMatch(
      /circuit open for aws\/111111111111\/us-east-1\/ec2\/DescribeVpcs after repeated throttling; retry in 60s/,
    );
    // The second run never sent DescribeVpcs.
    expect(mocks.ec2.commandCalls(DescribeVpcsCommand)).toHaveLength(1);
  });
});

describe('access denied', () => {
  beforeEach(() => {
    mocks = sampleAwsMocks();
  });

  it('reports a denied service in coverage and collects the rest', async () => {
    mocks.secrets.on(ListSecretsCommand).rejects(denied());
    const { coverage, errors, names, events } = await run();
    const secrets = entry(coverage, 'secretsmanager');
    expect(secrets).toMatchObject({ status: 'FAILED', asset_count: 0 });
    expect(secrets?.error).toMatch(/^AccessDeniedException: /);
    expect(errors).toContain(`aws secretsmanager (111111111111, us-east-1) access denied: ${secrets?.error}`);
    expect(names).not.toContain('orders-db-credentials');
    expect(names).toEqual(expect.arrayContaining(['web-1', 'orders-db', 'api-handler', 'app-role']));
    // Denied is an answer, not a throttle: no retries, no breaker.
    expect(events.filter((e) => e.kind === 'retry' || e.kind === 'breaker_trip')).toEqual([]);
    expect(mocks.secrets.commandCalls(ListSecretsCommand)).toHaveLength(1);
  });

  it('keeps the references to what it could not read as unresolved', async () => {
    mocks.secrets.on(ListSecretsCommand).rejects(denied());
    const out = await collectAws(null);
    expect(out.unresolved_references).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          source_name: 'bastion-admin',
          target: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:orders-db-credentials-AbC',
          edge_type: 'GRANTS_ACCESS',
        }),
      ]),
    );
  });
});

describe('cancellation', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
  });

  it('stops between pages when the signal aborts', async () => {
    const controller = new AbortController();
    mocks.ec2.on(DescribeVpcsCommand).callsFake(async () => {
      controller.abort(new Error('cancelled by the caller'));
      return { Vpcs: [{ VpcId: 'vpc-a' }], NextToken: 'more' };
    });
    await expect(run({ services: ['vpc', 'lambda'], signal: controller.signal })).rejects.toThrow(
      'cancelled by the caller',
    );
    expect(mocks.ec2.commandCalls(DescribeVpcsCommand)).toHaveLength(1);
    expect(mocks.lambda.commandCalls(ListFunctionsCommand)).toHaveLength(0);
  });
});

describe('organizations', () => {
  beforeEach(() => {
    mocks = emptyAwsMocks();
    const orgArn = 'arn:aws:organizations::111111111111:organization/o-sample';
    const ouArn = 'arn:aws:organizations::111111111111:ou/o-sample/ou-work';
    mocks.organizations
      .on(DescribeOrganizationCommand)
      .resolves({
        Organization: { Id: 'o-sample', Arn: orgArn, MasterAccountId: '111111111111', FeatureSet: 'ALL' },
      })
      .on(ListRootsCommand)
      .resolves({
        Roots: [{ Id: 'r-1', Arn: 'arn:aws:organizations::111111111111:root/o-sample/r-1', Name: 'Root' }],
      })
      .on(ListOrganizationalUnitsForParentCommand, { ParentId: 'r-1' })
      .resolves({ OrganizationalUnits: [{ Id: 'ou-work', Arn: ouArn, Name: 'Workloads' }] })
      .on(ListAccountsForParentCommand, { ParentId: 'ou-work' })
      .resolves({
        Accounts: [
          { Id: '111111111111', Name: 'prod', Status: 'ACTIVE', Email: 'prod@example.com' },
          { Id: '222222222222', Name: 'shared-services', Status: 'ACTIVE' },
        ],
      })
      .on(ListPoliciesCommand)
      .resolves({
        Policies: [
          {
            Id: 'p-1',
            Arn: 'arn:aws:organizations::111111111111:policy/o-sample/service_control_policy/p-1',
            Name: 'deny-unapproved-regions',
            Type: 'SERVICE_CONTROL_POLICY',
          },
        ],
      })
      .on(ListTargetsForPolicyCommand)
      .resolves({
        Targets: [{ TargetId: 'ou-work', Arn: ouArn, Type: 'ORGANIZATIONAL_UNIT', Name: 'Workloads' }],
      });
  });

  it('maps the organization as assets, hierarchy edges and the topology', async () => {
    const out = await collectAws(['organizations']);
    const assets = out.assets ?? [];
    const name = new Map(assets.map((a) => [a.id, a.name]));
    const lines = (out.edges ?? []).map(
      (e) => `${name.get(e.source_id)} ${e.edge_type} ${name.get(e.target_id)}`,
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        'o-sample CONTAINS Workloads',
        'Workloads CONTAINS prod',
        'Workloads CONTAINS shared-services',
        'deny-unapproved-regions GOVERNS Workloads',
      ]),
    );
    // The caller's account node and the organization's entry for it are one asset.
    expect(assets.filter((a) => a.arn === 'arn:aws:iam::111111111111:root').map((a) => a.name)).toEqual([
      'prod',
    ]);
    expect(out.organization).toMatchObject({
      organization_id: 'o-sample',
      management_account_id: '111111111111',
      caller_account_id: '111111111111',
      roots: [{ id: 'r-1', is_root: true }],
      ous: { 'ou-work': { name: 'Workloads', parent_id: 'r-1', path: ['Workloads'] } },
      accounts: { '222222222222': { name: 'shared-services', parent_id: 'ou-work', ou_path: ['Workloads'] } },
      policies: [{ id: 'p-1', name: 'deny-unapproved-regions', targets: ['ou-work'] }],
    });
    expect(entry(out.coverage ?? [], 'organizations')).toMatchObject({ status: 'SUCCESS', asset_count: 5 });
    // The reference's relationships and metadata for organization assets (INVENTORY_REFERENCE.md 18).
    const edge = (line: string) =>
      (out.edges ?? []).find(
        (e) => `${name.get(e.source_id)} ${e.edge_type} ${name.get(e.target_id)}` === line,
      );
    expect(edge('deny-unapproved-regions GOVERNS Workloads')?.relationship).toBe('SCP_RESTRICTS');
    expect(edge('Workloads CONTAINS shared-services')?.relationship).toBe('ORG_CONTAINS_ACCOUNT');
    expect(edge('prod MANAGES o-sample')?.relationship).toBe('OWNED_BY');
    const byName = new Map(assets.map((a) => [a.name, a]));
    expect(byName.get('Workloads')?.metadata).toMatchObject({
      ou_id: 'ou-work',
      is_root: false,
      path: ['Workloads'],
      aliases: ['ou-work'],
    });
    expect(byName.get('prod')?.metadata).toMatchObject({
      ou_path: ['Workloads'],
      email: 'prod@example.com',
      management_account: true,
    });
    expect(byName.get('shared-services')?.metadata).toMatchObject({ management_account: false });
    expect(byName.get('deny-unapproved-regions')?.metadata).toMatchObject({
      target_count: 1,
      aliases: ['p-1'],
    });
  });

  it('reports an account outside an organization and maps the rest', async () => {
    mocks.organizations.on(DescribeOrganizationCommand).rejects(
      Object.assign(new Error('Your account is not a member of an organization.'), {
        name: 'AWSOrganizationsNotInUseException',
      }),
    );
    const { coverage } = await run({ services: ['organizations', 'vpc'] });
    expect(entry(coverage, 'organizations')?.error).toMatch(/^AWSOrganizationsNotInUseException: /);
    expect(entry(coverage, 'vpc')?.status).toBe('SUCCESS');
  });
});

describe('AwsCollector IAM relationships', () => {
  it('names same-account trusts ROLE_ASSUMES_ROLE and plain grants POLICY_ALLOWS_ACTION, as the reference does', async () => {
    mocks = emptyAwsMocks();
    const doc = (statement: Record<string, unknown>) =>
      encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: [statement] }));
    mocks.iam.on(GetAccountAuthorizationDetailsCommand).resolves({
      IsTruncated: false,
      RoleDetailList: [
        {
          RoleName: 'ci',
          Arn: 'arn:aws:iam::111111111111:role/ci',
          AssumeRolePolicyDocument: doc({
            Effect: 'Allow',
            Principal: { Service: 'codebuild.amazonaws.com' },
            Action: 'sts:AssumeRole',
          }),
          RolePolicyList: [
            {
              PolicyName: 'assume',
              PolicyDocument: doc({
                Effect: 'Allow',
                Action: 'sts:AssumeRole',
                Resource: 'arn:aws:iam::111111111111:role/deploy',
              }),
            },
          ],
        },
        {
          RoleName: 'deploy',
          Arn: 'arn:aws:iam::111111111111:role/deploy',
          AssumeRolePolicyDocument: doc({
            Effect: 'Allow',
            Principal: { AWS: 'arn:aws:iam::111111111111:role/ci' },
            Action: 'sts:AssumeRole',
          }),
          RolePolicyList: [
            {
              PolicyName: 'tables',
              PolicyDocument: doc({
                Effect: 'Allow',
                Action: ['dynamodb:GetItem', 'dynamodb:PutItem'],
                Resource: 'arn:aws:dynamodb:us-east-1:111111111111:table/orders',
              }),
            },
          ],
        },
      ],
    });
    const out = await collectAws(['iam']);
    const relations = (n: string) =>
      (out.assets ?? []).find((a) => a.name === n)?.metadata.relations as {
        edge: string;
        relationship?: string;
        target: string;
      }[];
    expect(relations('ci')).toContainEqual(
      expect.objectContaining({
        target: 'arn:aws:iam::111111111111:role/deploy',
        edge: 'IAM_TRUST',
        relationship: 'ROLE_ASSUMES_ROLE',
      }),
    );
    expect(relations('deploy')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          target: 'arn:aws:iam::111111111111:role/ci',
          edge: 'IAM_TRUST',
          relationship: 'ROLE_ASSUMES_ROLE',
        }),
        expect.objectContaining({
          target: 'arn:aws:dynamodb:us-east-1:111111111111:table/orders',
          edge: 'GRANTS_ACCESS',
          relationship: 'POLICY_ALLOWS_ACTION',
        }),
      ]),
    );
  });
});

describe('AwsCollector IAM documents', () => {
  it("keeps each role's trust policy and each customer policy's document, parsed, for the IAM linter", async () => {
    mocks = sampleAwsMocks();
    const details = await new IAMClient({ region: REGION, credentials: FAKE_CREDENTIALS }).send(
      new GetAccountAuthorizationDetailsCommand({}),
    );
    const document = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] };
    mocks.iam.on(GetAccountAuthorizationDetailsCommand).resolves({
      ...details,
      Policies: [
        {
          PolicyName: 'admin-all',
          Arn: 'arn:aws:iam::111111111111:policy/admin-all',
          DefaultVersionId: 'v2',
          PolicyVersionList: [
            { VersionId: 'v1', IsDefaultVersion: false, Document: encodeURIComponent('{"Statement":[]}') },
            {
              VersionId: 'v2',
              IsDefaultVersion: true,
              Document: encodeURIComponent(JSON.stringify(document)),
            },
          ],
        },
      ],
    });
    const out = await collectAws(['iam']);
    const assets = out.assets ?? [];
    expect(assets.find((a) => a.name === 'admin-all')?.metadata.policy_document).toEqual(document);
    expect(assets.find((a) => a.name === 'app-role')?.metadata.assume_role_policy).toMatchObject({
      Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
  });

  it("keeps a role's, user's and group's inline policies as one policy_document, and links a permissions boundary", async () => {
    mocks = sampleAwsMocks();
    const inline = (name: string, statement: Record<string, unknown>) => ({
      PolicyName: name,
      PolicyDocument: encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: statement })),
    });
    const trust = encodeURIComponent(
      JSON.stringify({
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      }),
    );
    mocks.iam.on(GetAccountAuthorizationDetailsCommand).resolves({
      IsTruncated: false,
      RoleDetailList: [
        {
          RoleName: 'ops-role',
          Arn: 'arn:aws:iam::111111111111:role/ops-role',
          AssumeRolePolicyDocument: trust,
          RolePolicyList: [
            inline('read-logs', {
              Sid: 'Logs',
              Effect: 'Allow',
              Action: 'logs:Get*',
              Resource: 'arn:aws:logs:*',
            }),
            inline('s3-anything', { Sid: 'S3', Effect: 'Allow', Action: 's3:*', Resource: '*' }),
          ],
        },
        {
          RoleName: 'bare-role',
          Arn: 'arn:aws:iam::111111111111:role/bare-role',
          AssumeRolePolicyDocument: trust,
          PermissionsBoundary: {
            PermissionsBoundaryType: 'PermissionsBoundaryPolicy',
            PermissionsBoundaryArn: 'arn:aws:iam::111111111111:policy/boundary',
          },
        },
      ],
      UserDetailList: [
        {
          UserName: 'deployer',
          Arn: 'arn:aws:iam::111111111111:user/deployer',
          UserPolicyList: [
            inline('deploy', { Effect: 'Allow', Action: 'lambda:UpdateFunctionCode', Resource: '*' }),
          ],
        },
      ],
      Policies: [
        {
          PolicyName: 'boundary',
          Arn: 'arn:aws:iam::111111111111:policy/boundary',
          DefaultVersionId: 'v1',
          PolicyVersionList: [
            {
              VersionId: 'v1',
              IsDefaultVersion: true,
              Document: encodeURIComponent(
                '{"Statement":[{"Effect":"Allow","Action":"s3:Get*","Resource":"arn:aws:s3:::logs/*"}]}',
              ),
            },
          ],
        },
      ],
      GroupDetailList: [
        {
          GroupName: 'admins',
          Arn: 'arn:aws:iam::111111111111:group/admins',
          GroupPolicyList: [inline('all', { Effect: 'Allow', Action: '*', Resource: '*' })],
        },
      ],
    });
    const out = await collectAws(['iam']);
    const byName = new Map((out.assets ?? []).map((a) => [a.name, a]));
    expect(byName.get('ops-role')?.metadata).toMatchObject({
      inline_policies: ['read-logs', 's3-anything'],
      policy_document: {
        Version: '2012-10-17',
        Statement: [
          { Sid: 'Logs', Effect: 'Allow', Action: 'logs:Get*', Resource: 'arn:aws:logs:*' },
          { Sid: 'S3', Effect: 'Allow', Action: 's3:*', Resource: '*' },
        ],
      },
      assume_role_policy: { Statement: [{ Principal: { Service: 'ec2.amazonaws.com' } }] },
    });
    expect(byName.get('bare-role')?.metadata.policy_document).toBeUndefined();
    // Its permissions boundary, a customer policy collected here, is linked.
    expect(byName.get('bare-role')?.metadata.permissions_boundary).toBe(
      'arn:aws:iam::111111111111:policy/boundary',
    );
    const boundary = (out.edges ?? []).find(
      (e) => e.source_id === byName.get('bare-role')?.id && e.target_id === byName.get('boundary')?.id,
    );
    expect(boundary).toMatchObject({ edge_type: 'REFERENCES', relationship: 'PERMISSION_BOUNDARY_LIMITS' });
    expect(byName.get('deployer')?.metadata.policy_document).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 'lambda:UpdateFunctionCode', Resource: '*' }],
    });
    expect(byName.get('admins')?.metadata).toMatchObject({
      inline_policies: ['all'],
      policy_document: { Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
    });
  });
});
